//! The offer of new-photo alerts: shown only where the shop offers a channel, one button at
//! first, the channels offered (LINE first), the consent box unticked and required, the
//! multipart request, LINE Login as a navigation, the SMS code and the alert turned on, the
//! refusals beside their fields, and the answer back from LINE.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { recordForms } from '@/test/formData';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { jpeg } from '@/test/fixtures';
import { AlertOffer } from './AlertOffer';
import { AlertOutcome } from './AlertOutcome';

const KEY = 'bkk-10k';
const ID = '0123456789abcdef0123456789abcdef';
type Answers = Parameters<typeof fakeFetch>[0];

/** The fields of every FormData the offer builds (the test fetch does not read multipart). */
let forms: Record<string, unknown>[] = [];

beforeEach(() => {
  forms = recordForms();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const conf = (value: string) => ({ status: 'success', body: { value } });

const ALERT = {
  alert_id: ID,
  event_key: KEY,
  event_title: 'Bangkok 10K',
  channel: 'sms',
  contact: '081****678',
  expires_at: '2026-12-01T16:59:59Z',
};

const smsAsked = { status: 'success', alert_id: ID, channel: 'sms', next: 'code', contact: '081****678', expires_in: 600 };
const lineAsked = {
  status: 'success',
  alert_id: ID,
  channel: 'line',
  next: 'line',
  line_url: `/api/line/link/alert/${ID}`,
  expires_in: 600,
};

function setup(channels = 'line,sms', extra: Answers = {}, selfie = jpeg('me.jpg')) {
  const net = fakeFetch({ 'POST /v1/utils/conf': conf(channels), ...extra });
  renderWithProviders(<AlertOffer eventKey={KEY} selfie={selfie} />, { route: `/${KEY}` });
  return net;
}

const asked = (calls: { key: string }[]) => calls.filter((c) => c.key === 'POST /api/alerts');

async function open() {
  await userEvent.click(await screen.findByTestId('alert-open'));
}

async function askBySms(mobile = '081-234-5678') {
  await open();
  await userEvent.click(screen.getByTestId('alert-channel-sms'));
  await userEvent.type(screen.getByTestId('alert-mobile'), mobile);
  await userEvent.click(screen.getByTestId('alert-consent'));
  await userEvent.click(screen.getByTestId('alert-submit'));
}

describe('alert offer', () => {
  it('shows nothing where the shop offers no alerts', async () => {
    const { calls } = setup('');
    await waitFor(() => expect(calls.map((c) => c.body)).toContainEqual({ conf_name: 'ALERTS' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByTestId('alert-offer')).not.toBeInTheDocument();
  });

  it('starts as one button; opened, offers LINE first, and waits for its own consent box', async () => {
    setup('sms,line');
    expect(await screen.findByTestId('alert-open')).toHaveTextContent('แจ้งเตือนเมื่อมีรูปใหม่ของฉัน');
    expect(screen.queryByTestId('alert-consent')).not.toBeInTheDocument();
    await open();
    const offer = screen.getByTestId('alert-offer');
    const channels = within(offer).getAllByTestId(/^alert-channel-/);
    expect(channels.map((b) => b.dataset.testid)).toEqual(['alert-channel-line', 'alert-channel-sms']);
    expect(screen.getByTestId('alert-channel-line')).toHaveClass('btn-line');
    expect(screen.getByTestId('alert-channel-line')).toHaveAttribute('aria-pressed', 'true');
    // LINE needs no number.
    expect(screen.queryByTestId('alert-mobile')).not.toBeInTheDocument();
    const consent = screen.getByTestId('alert-consent');
    expect(consent).not.toBeChecked();
    const text = consent.closest('label')!;
    expect(text).toHaveTextContent('แม่แบบใบหน้า');
    expect(text).toHaveTextContent('ในอีเวนต์นี้เท่านั้น');
    expect(text).toHaveTextContent('เมื่อปิดการขายรูปของอีเวนต์นี้');
    expect(text).toHaveTextContent('30 วัน');
    expect(text).toHaveTextContent('"หยุด"');
    expect(text).toHaveTextContent('ไม่จำเป็นต้องยินยอมเพื่อค้นหาหรือซื้อรูป');
    expect(screen.getByTestId('alert-submit')).toBeDisabled();
    await userEvent.click(consent);
    expect(screen.getByTestId('alert-submit')).toBeEnabled();
  });

  it('says plainly in English what is kept and until when', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup();
    await open();
    const text = screen.getByTestId('alert-consent').closest('label')!;
    expect(text).toHaveTextContent('keeps a template of the face in this selfie');
    expect(text).toHaveTextContent('only at this event');
    expect(text).toHaveTextContent('when the event’s sale ends, after at most 30 days, or when I tap "stop"');
    expect(text).toHaveTextContent('not needed to search or buy');
  });

  it('offers only the channels the shop set up', async () => {
    setup('sms');
    await open();
    expect(screen.queryByTestId('alert-channel-line')).not.toBeInTheDocument();
    expect(screen.getByTestId('alert-channel-sms')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('alert-mobile')).toBeInTheDocument();
  });

  it('LINE: sends the event, the channel, the consent and the selfie, then opens LINE Login', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { href: 'http://localhost/', origin: 'http://localhost', assign });
    const { calls } = setup('line,sms', { 'POST /api/alerts': lineAsked });
    await open();
    await userEvent.click(screen.getByTestId('alert-consent'));
    await userEvent.click(screen.getByTestId('alert-submit'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/api/line/link/alert/${ID}`));
    expect(asked(calls)).toEqual([{ key: 'POST /api/alerts', body: 'multipart' }]);
    const form = forms.at(-1)!;
    expect(form).toMatchObject({ event_key: KEY, channel: 'line', consent: 'yes' });
    expect(form.mobile).toBeUndefined();
    expect((form.file as File).name).toBe('me.jpg');
  });

  it('SMS: checks the number, texts a code, and turns the alert on with it', async () => {
    const { calls } = setup('line,sms', {
      'POST /api/alerts': smsAsked,
      [`POST /api/alerts/${ID}/confirm`]: { status: 'success', alert: ALERT },
    });
    await askBySms('12345');
    expect(screen.getByTestId('alert-mobile-error')).toHaveTextContent('กรุณากรอกเบอร์มือถือ 10 หลัก');
    expect(asked(calls)).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('alert-mobile'));
    await userEvent.type(screen.getByTestId('alert-mobile'), '081-234-5678');
    await userEvent.click(screen.getByTestId('alert-submit'));
    expect(await screen.findByTestId('alert-code-sent')).toHaveTextContent('เราส่งรหัสทาง SMS ไปที่ 081****678 แล้ว');
    expect(screen.getByTestId('alert-code-sent')).toHaveTextContent('10 นาที');
    expect(forms.at(-1)).toMatchObject({ event_key: KEY, channel: 'sms', mobile: '0812345678', consent: 'yes' });

    await userEvent.type(screen.getByTestId('alert-code'), '123456');
    await userEvent.click(screen.getByTestId('alert-confirm'));
    const on = await screen.findByTestId('alert-on');
    expect(on).toHaveTextContent('เปิดแล้ว: เราจะส่ง SMS หาคุณเมื่อมีรูปใหม่ของคุณ');
    // 16:59 UTC is 23:59 in Bangkok: still 1 December there.
    expect(on).toHaveTextContent('1 ธ.ค. 2569');
    expect(calls.find((c) => c.key === `POST /api/alerts/${ID}/confirm`)?.body).toEqual({ code: '123456' });
  });

  it('tells the SMS alert is on in English, with its last day', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup('sms', {
      'POST /api/alerts': smsAsked,
      [`POST /api/alerts/${ID}/confirm`]: { status: 'success', alert: ALERT },
    });
    await askBySms();
    expect(await screen.findByTestId('alert-code-sent')).toHaveTextContent('We texted a code to 081****678');
    await userEvent.type(screen.getByTestId('alert-code'), '123456');
    await userEvent.click(screen.getByTestId('alert-confirm'));
    const on = await screen.findByTestId('alert-on');
    expect(on).toHaveTextContent('On: we will text you when new photos of you arrive');
    expect(on).toHaveTextContent('1 Dec 2026');
  });

  it('tells a wrong code beside the field, and a spent one with a way to ask again', async () => {
    let tries = 0;
    setup('sms', {
      'POST /api/alerts': smsAsked,
      [`POST /api/alerts/${ID}/confirm`]: () =>
        ++tries === 1 ? errorAnswer(422, 'access_code_invalid')() : errorAnswer(422, 'access_code_expired')(),
    });
    await askBySms();
    await userEvent.type(await screen.findByTestId('alert-code'), '111111');
    await userEvent.click(screen.getByTestId('alert-confirm'));
    expect(await screen.findByTestId('alert-code-error')).toHaveTextContent('รหัสไม่ถูกต้อง');

    await userEvent.clear(screen.getByTestId('alert-code'));
    await userEvent.type(screen.getByTestId('alert-code'), '222222');
    await userEvent.click(screen.getByTestId('alert-confirm'));
    expect(await screen.findByTestId('alert-error')).toHaveTextContent('รหัสหมดอายุ');
    await userEvent.click(screen.getByTestId('alert-again'));
    expect(screen.getByTestId('alert-consent')).not.toBeChecked();
  });

  it.each([
    [422, 'alert_consent_required', 'consent', 'alert-consent-error', 'กรุณาทำเครื่องหมายยินยอม'],
    [422, 'invalid_field', 'mobile', 'alert-mobile-error', 'ข้อมูลบางช่องไม่ถูกต้อง'],
    [422, 'access_code_undeliverable', undefined, 'alert-mobile-error', 'ส่ง SMS ไปที่เบอร์นี้ไม่ได้'],
    [404, 'alerts_unavailable', undefined, 'alert-error', 'ร้านนี้ยังไม่เปิดให้แจ้งเตือนรูปใหม่'],
    [422, 'no_face', 'file', 'alert-error', 'ไม่พบใบหน้าในรูปที่อัปโหลด'],
    [422, 'event_not_on_sale', undefined, 'alert-error', 'อีเวนต์นี้ไม่ได้เปิดขาย'],
    [429, 'rate_limited', undefined, 'alert-error', 'ทำรายการบ่อยเกินไป'],
  ])('tells %i %s where it belongs', async (status, code, field, testId, text) => {
    setup('line,sms', { 'POST /api/alerts': errorAnswer(status, code, field ? { body: { field } } : {}) });
    await askBySms();
    expect(await screen.findByTestId(testId)).toHaveTextContent(text);
    expect(screen.queryByTestId('alert-code')).not.toBeInTheDocument();
    expect(screen.getByTestId('alert-submit')).toBeEnabled();
  });

  it('tells the alerts’ own refusals in English too', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup('line', { 'POST /api/alerts': errorAnswer(404, 'alerts_unavailable') });
    await open();
    await userEvent.click(screen.getByTestId('alert-consent'));
    await userEvent.click(screen.getByTestId('alert-submit'));
    expect(await screen.findByTestId('alert-error')).toHaveTextContent('does not offer alerts of new photos');
  });
});

describe('back from LINE', () => {
  function renderAt(route: string) {
    fakeFetch({});
    renderWithProviders(<AlertOutcome />, { route });
  }

  it.each([
    ['linked', 'เปิดแล้ว: รูปใหม่ของคุณจะส่งไปที่ LINE ของคุณ'],
    ['declined', 'ไม่ได้อนุญาตใน LINE'],
    ['failed', 'ไม่สำเร็จ'],
  ])('tells %s', (outcome, text) => {
    renderAt(`/${KEY}?alert=${outcome}`);
    const shown = screen.getByTestId('alert-outcome');
    expect(shown).toHaveAttribute('data-outcome', outcome);
    expect(shown).toHaveTextContent(text);
  });

  it('tells it in English', () => {
    localStorage.setItem('currentLanguage', 'en');
    renderAt(`/${KEY}?alert=linked`);
    expect(screen.getByTestId('alert-outcome')).toHaveTextContent('On: new photos of you will come to your LINE');
  });

  it.each(['', '?alert=toString', '?line=linked'])('says nothing for %s', (query) => {
    renderAt(`/${KEY}${query}`);
    expect(screen.queryByTestId('alert-outcome')).not.toBeInTheDocument();
  });
});
