//! "Hide my photos": the explanation, the form's checks, the multipart request it sends,
//! the request number on success, each refusal beside its field, and choosing the event
//! first from /hide-my-photos.

import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { recordForms } from '@/test/formData';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { HideMyPhotosPage, HidePickEventPage, isContact } from './HideMyPhotosPage';
import { jpeg, makeEvent } from '@/test/fixtures';

const KEY = 'bkk-10k';
type Answers = Parameters<typeof fakeFetch>[0];

/** The fields of every FormData the page builds (the test fetch does not read multipart). */
let forms: Record<string, unknown>[] = [];

beforeEach(() => {
  forms = recordForms();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup(answer: unknown = { status: 'success', request_id: 'req-42' }, extra: Answers = {}) {
  const net = fakeFetch({
    [`GET /v1/events/${KEY}`]: { status: 'success', ...makeEvent() },
    'POST /api/privacy/requests': answer,
    ...extra,
  });
  renderWithProviders(<HideMyPhotosPage />, {
    path: '/:eventKey/hide-my-photos',
    route: `/${KEY}/hide-my-photos`,
    routes: [{ path: '/404', element: <p>not found page</p> }],
  });
  return net;
}

type Fill = { contact?: string; file?: File | null; consent?: boolean };

async function fill({ contact = '081-234-5678', file = jpeg('me.jpg'), consent = true }: Fill = {}) {
  await userEvent.type(await screen.findByTestId('hide-contact'), contact);
  if (file) fireEvent.change(screen.getByTestId('hide-file'), { target: { files: [file] } });
  if (consent) await userEvent.click(screen.getByTestId('hide-consent'));
  await userEvent.click(screen.getByTestId('hide-submit'));
}

const sent = (calls: { key: string }[]) => calls.filter((c) => c.key === 'POST /api/privacy/requests');

describe('contact check', () => {
  it.each([
    ['0812345678', true],
    ['081-234-5678', true],
    ['021234567', true],
    ['a@b.co', true],
    ['12345', false],
    ['name@', false],
    ['', false],
  ])('%s → %s', (value, ok) => expect(isContact(value)).toBe(ok));
});

describe('hide my photos', () => {
  it('explains the right to object and what happens, for the event of the address', async () => {
    setup();
    expect(await screen.findByTestId('hide-event')).toHaveTextContent('Bangkok 10K');
    const text = screen.getByTestId('hide-explanation');
    expect(text).toHaveTextContent('พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล');
    expect(text).toHaveTextContent('รูปเซลฟีของคุณถูกลบทันที');
    expect(text).toHaveTextContent('รูปใบหน้านี้ถูกลบทันทีที่พิจารณาเสร็จ');
    expect(text).toHaveTextContent('รูปที่มีผู้ซื้อไปแล้วยังคงอยู่กับผู้ซื้อ');
  });

  it('says what is missing and sends nothing', async () => {
    const { calls } = setup();
    await fill({ contact: '123', file: null, consent: false });
    expect(screen.getByTestId('hide-contact-error')).toHaveTextContent('กรุณากรอกเบอร์มือถือ');
    expect(screen.getByTestId('hide-file-error')).toHaveTextContent('กรุณาเลือกรูปเซลฟี');
    expect(screen.getByTestId('hide-consent-error')).toHaveTextContent('กรุณายืนยัน');
    expect(screen.getByTestId('hide-contact')).toHaveAttribute('aria-invalid', 'true');
    expect(sent(calls)).toHaveLength(0);
  });

  it.each([
    ['a text file', new File(['x'], 'notes.txt', { type: 'text/plain' }), 'กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น'],
    ['a file over 5 MB', jpeg('big.jpg', 6_000_000), 'ไฟล์มีขนาดใหญ่กว่า 5MB'],
  ])('refuses %s like the search does', async (_, file, text) => {
    const { calls } = setup();
    await fill({ file });
    expect(screen.getByTestId('hide-file-error')).toHaveTextContent(text);
    expect(sent(calls)).toHaveLength(0);
  });

  it('sends the event, the contact and the selfie as a form, then shows the request number', async () => {
    const { calls } = setup();
    await fill();
    expect(await screen.findByTestId('hide-request-id')).toHaveTextContent('req-42');
    expect(screen.getByTestId('hide-done')).toHaveTextContent('081-234-5678');
    expect(sent(calls)).toHaveLength(1);
    expect(sent(calls)[0]).toMatchObject({ body: 'multipart' });
    const form = forms.at(-1)!;
    expect(form.event_key).toBe(KEY);
    expect(form.contact).toBe('081-234-5678');
    expect((form.file as File).name).toBe('me.jpg');
  });

  it.each([
    [409, 'privacy_request_exists', undefined, 'hide-file-error', 'มีคำขอซ่อนรูปของใบหน้านี้'],
    [422, 'selfie_many_faces', 'file', 'hide-file-error', 'รูปนี้มีหลายคน'],
    [422, 'invalid_field', 'contact', 'hide-contact-error', 'ข้อมูลบางช่องไม่ถูกต้อง'],
    [422, 'no_face', 'file', 'hide-file-error', 'ไม่พบใบหน้าในรูปที่อัปโหลด'],
    [413, 'file_too_large', undefined, 'hide-file-error', 'ไฟล์มีขนาดใหญ่กว่า 5MB'],
    [415, 'unsupported_image_type', undefined, 'hide-file-error', 'กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น'],
    [404, 'event_not_found', undefined, 'hide-error', 'ไม่พบอีเวนต์นี้'],
    [429, 'rate_limited', undefined, 'hide-error', 'ทำรายการบ่อยเกินไป'],
  ])('tells %i %s beside its field', async (status, code, field, testId, text) => {
    setup(errorAnswer(status, code, field ? { body: { field } } : {}));
    await fill();
    expect(await screen.findByTestId(testId)).toHaveTextContent(text);
    expect(screen.queryByTestId('hide-done')).not.toBeInTheDocument();
    expect(screen.getByTestId('hide-submit')).toBeEnabled();
  });

  it.each([
    [409, 'privacy_request_exists', 'request to hide the photos of this face'],
    [422, 'selfie_many_faces', 'more than one person'],
  ])('tells %i %s in English too, beside the selfie', async (status, code, text) => {
    localStorage.setItem('currentLanguage', 'en');
    setup(errorAnswer(status, code));
    await fill();
    expect(await screen.findByTestId('hide-file-error')).toHaveTextContent(text);
    expect(screen.queryByTestId('hide-contact-error')).not.toBeInTheDocument();
  });
});

describe('choosing the event first', () => {
  it('lists the events showing photos and opens the chosen one’s form', async () => {
    fakeFetch({
      'POST /v1/events/pagination': {
        status: 'success',
        body: [makeEvent(), makeEvent({ event_key: 'cm-trail', title: 'Chiang Mai Trail' })],
      },
    });
    const { router } = renderWithProviders(<HidePickEventPage />, {
      path: '/hide-my-photos',
      route: '/hide-my-photos',
      routes: [{ path: '/:eventKey/hide-my-photos', element: <p>form page</p> }],
    });
    expect(screen.getByTestId('hide-explanation')).toBeInTheDocument();
    const select = await screen.findByTestId('hide-pick-event');
    expect(screen.getByTestId('hide-pick-go')).toBeDisabled();
    await userEvent.selectOptions(select, 'cm-trail');
    await userEvent.click(screen.getByTestId('hide-pick-go'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/cm-trail/hide-my-photos'));
  });
});
