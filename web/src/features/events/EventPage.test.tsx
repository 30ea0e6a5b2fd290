//! Event page: header and sale states, consent, selfie checks, the three-step face search,
//! the bib search, the cart actions and their storage, buy-all, free downloads, "not me" on
//! the results, the slots other features fill (after a face search, at the top) and the
//! unknown event.

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventBody, PhotoBody } from '@/api/types';
import { SlotsProvider, type Slots } from '@/components/slots';
import { consentKey } from '@/lib/storage';
import { errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { EventPage } from './EventPage';
import { forgetLatestQueries } from './usePhotoSearch';
import { FakeXhr } from '@/test/fakeXhr';
import { jpeg, makeEvent, makePhoto } from '@/test/fixtures';

const KEY = 'bkk-10k';
const SIGNED = {
  status: 'success',
  url: 'https://uploads.example/selfie/abc?signature=x',
  file_name: 'me.jpg',
  search_id: 'search-1',
  file_location: 'selfies/search-1.jpg',
};

type Answers = Parameters<typeof fakeFetch>[0];

function setup(event: EventBody, extra: Answers = {}, { consent = true, slots }: { consent?: boolean; slots?: Slots } = {}) {
  if (consent) localStorage.setItem(consentKey(KEY), 'Y');
  const net = fakeFetch({
    [`GET /v1/events/${KEY}`]: { status: 'success', ...event },
    'POST /v1/facesearch/highlight': { status: 'success', body: [makePhoto(900)] },
    'POST /v1/logs/': { status: 'success' },
    ...extra,
  });
  const page = slots ? (
    <SlotsProvider value={slots}>
      <EventPage />
    </SlotsProvider>
  ) : (
    <EventPage />
  );
  const view = renderWithProviders(page, {
    path: '/:eventKey',
    route: `/${KEY}`,
    routes: [
      { path: '/', element: <p>home page</p> },
      { path: '/404', element: <p>not found page</p> },
      { path: '/cart', element: <p>cart page</p> },
    ],
  });
  return { ...net, ...view };
}

/** The reference a search answers for what it found (the deal covers those photos). */
const FOUND_REF = '00112233445566778899aabbccddeeff';

const searchAnswer = (images: PhotoBody[], avg = 80) => ({
  'POST /v2/facesearch/sign': SIGNED,
  'POST /v2/facesearch': { status: 'success', image_length: images.length, images, avg_price: avg, reason: null, found_ref: FOUND_REF },
});

const keys = (calls: { key: string }[]) => calls.map((c) => c.key);
const english = () => localStorage.setItem('currentLanguage', 'en');
const storedIds = (key: string) =>
  (JSON.parse(localStorage.getItem(key) ?? '[]') as { id: number }[]).map((i) => i.id);

async function choose(file: File) {
  const input = await screen.findByTestId('selfie-input');
  // fireEvent, not userEvent.upload, which would drop files the `accept` list excludes.
  fireEvent.change(input, { target: { files: [file] } });
}

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('event header', () => {
  it('shows the title, date, province, packages and the days-left warning', async () => {
    setup(makeEvent({ day_diff: 5 }));
    expect(await screen.findByTestId('event-title')).toHaveTextContent('Bangkok 10K');
    expect(screen.getByText('12 มกราคม 2568')).toBeInTheDocument();
    expect(screen.getByText('กรุงเทพมหานคร')).toBeInTheDocument();
    const chips = screen.getAllByTestId('package-chip').map((c) => c.textContent);
    expect(chips).toEqual(['1 รูป 99.00 บาท', '5 รูป 399.00 บาท']);
    expect(screen.getByTestId('sale-warning')).toHaveTextContent('เหลือเวลาขายรูปอีก 5 วัน');
    expect(screen.getByTestId('sale-window')).toHaveTextContent('2568');
  });

  it.each([0, 11])('has no warning when day_diff is %i', async (dayDiff) => {
    setup(makeEvent({ day_diff: dayDiff }));
    await screen.findByTestId('event-title');
    expect(screen.queryByTestId('sale-warning')).not.toBeInTheDocument();
  });

  it('shows English package names in English', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup(makeEvent());
    await screen.findByTestId('event-title');
    expect(screen.getAllByTestId('package-chip')[0]).toHaveTextContent('1 photo 99.00 THB');
  });

  it('asks to come back before the sale and allows no search', async () => {
    setup(makeEvent({ can_sale: 'N' }));
    expect(await screen.findByTestId('sale-not-started')).toHaveTextContent('2025-01-12 08:00');
    expect(screen.queryByTestId('selfie-input')).not.toBeInTheDocument();
  });

  it('says End of sale when closed and allows no photo search, only the results', async () => {
    setup(makeEvent({ close_sale: 'Y' }));
    expect(await screen.findByTestId('sale-closed')).toHaveTextContent('End of sale');
    expect(screen.queryByTestId('selfie-input')).not.toBeInTheDocument();
    expect(await screen.findByTestId('result-search')).toBeInTheDocument();
  });

  it('links to the wholesale and manual pages when the event has them', async () => {
    setup(makeEvent({ is_hybrid: 'Y', is_event_stage: 'Y' }));
    expect(await screen.findByTestId('wholesale-link')).toHaveAttribute('href', `/${KEY}/wholesale`);
    expect(screen.getByTestId('manual-link')).toHaveAttribute('href', `/${KEY}/manual`);
  });

  it('links to hiding one’s photos of the event, also from the consent question', async () => {
    setup(makeEvent(), {}, { consent: false });
    expect(await screen.findByTestId('hide-link')).toHaveAttribute('href', `/${KEY}/hide-my-photos`);
    expect(screen.getByTestId('consent-hide-link')).toHaveAttribute('href', `/${KEY}/hide-my-photos`);
  });

  it('has neither link otherwise', async () => {
    setup(makeEvent());
    await screen.findByTestId('event-title');
    expect(screen.queryByTestId('wholesale-link')).not.toBeInTheDocument();
    expect(screen.queryByTestId('manual-link')).not.toBeInTheDocument();
  });

  it('shows the highlight photos before any search', async () => {
    setup(makeEvent());
    const gallery = await screen.findByTestId('highlight-gallery');
    expect(await within(gallery).findAllByTestId('highlight-photo')).toHaveLength(1);
  });

  it('sends an unknown event to /404', async () => {
    fakeFetch({});
    renderWithProviders(<EventPage />, {
      path: '/:eventKey',
      route: '/nope',
      routes: [{ path: '/404', element: <p>not found page</p> }],
    });
    expect(await screen.findByText('not found page')).toBeInTheDocument();
  });
});

describe('consent', () => {
  it('is not shown while the event loads, then once until accepted', async () => {
    setup(makeEvent(), {}, { consent: false });
    expect(screen.queryByTestId('consent-dialog')).not.toBeInTheDocument();
    const accept = await screen.findByTestId('consent-accept');
    expect(screen.getByRole('link', { name: 'ข้อกำหนดการใช้งาน' })).toHaveAttribute('href', '/terms-of-use');
    expect(screen.getByRole('link', { name: 'นโยบายการคืนเงิน' })).toHaveAttribute('href', '/refund-policy');
    await userEvent.click(accept);
    expect(localStorage.getItem(consentKey(KEY))).toBe('Y');
    expect(screen.queryByTestId('consent-dialog')).not.toBeInTheDocument();
  });

  it('is not asked again once given', async () => {
    setup(makeEvent());
    await screen.findByTestId('event-title');
    expect(screen.queryByTestId('consent-dialog')).not.toBeInTheDocument();
  });

  it('sends a visitor who declines home', async () => {
    setup(makeEvent(), {}, { consent: false });
    await userEvent.click(await screen.findByTestId('consent-decline'));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(localStorage.getItem(consentKey(KEY))).toBeNull();
  });
});

describe('selfie checks', () => {
  it('refuses a text file without any call', async () => {
    const { calls } = setup(makeEvent(), searchAnswer([makePhoto(1)]));
    await choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น');
    await userEvent.click(within(dialog).getByRole('button', { name: 'ตกลง' }));
    expect(keys(calls)).not.toContain('POST /v2/facesearch/sign');
    expect(FakeXhr.instances).toHaveLength(0);
  });

  it('refuses a file over 5 MB without any call', async () => {
    const { calls } = setup(makeEvent(), searchAnswer([makePhoto(1)]));
    await choose(jpeg('big.jpg', 6_000_000));
    expect(await screen.findByRole('dialog')).toHaveTextContent('ไฟล์มีขนาดใหญ่กว่า 5MB');
    expect(keys(calls)).not.toContain('POST /v2/facesearch/sign');
    expect(FakeXhr.instances).toHaveLength(0);
  });
});

describe('face search', () => {
  it('signs, PUTs with progress, searches with the event values and shows the cards', async () => {
    FakeXhr.manual = true;
    const { calls } = setup(makeEvent({ mhao_price: 500 }), searchAnswer([makePhoto(1), makePhoto(2)]));
    await choose(jpeg());

    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    expect(calls.find((c) => c.key === 'POST /v2/facesearch/sign')?.body).toEqual({
      event_key: KEY,
      file_name: 'me.jpg',
      file_type: 'image/jpeg',
    });
    const xhr = FakeXhr.instances[0]!;
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe(SIGNED.url);
    expect(xhr.headers['Content-Type']).toBe('image/jpeg');
    expect(xhr.body).toBeInstanceOf(File);
    expect(screen.getByTestId('selfie-input')).toBeDisabled();
    // Earlier results and the highlight give way to the running search.
    expect(screen.queryByTestId('highlight-gallery')).not.toBeInTheDocument();

    act(() => xhr.progress(40));
    expect(await screen.findByText('กำลังอัปโหลด 40%')).toBeInTheDocument();
    act(() => xhr.finish(200, '{"status":"success"}'));

    const results = await screen.findByTestId('search-results');
    expect(within(results).getAllByTestId('photo-card').map((c) => c.getAttribute('data-photo-id'))).toEqual([
      '1',
      '2',
    ]);
    expect(screen.getByTestId('search-count')).toHaveTextContent('พบ 2 รูป');
    expect(calls.find((c) => c.key === 'POST /v2/facesearch')?.body).toEqual({
      search_id: 'search-1',
      file_location: 'selfies/search-1.jpg',
      event_id: 7,
      event_key: KEY,
      face_threshold: 0.6,
      mhao_price: 500,
      max_face_search: 50,
    });
    expect(screen.getByTestId('selfie-input')).toBeEnabled();
    const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { images: PhotoBody[] };
    expect(latest.images.map((p) => p.id)).toEqual([1, 2]);
  });

  it('marks a photo found by sequence, and no outright match', async () => {
    setup(makeEvent(), searchAnswer([makePhoto(1), { ...makePhoto(2), similarity: 0.27, matched_by: 'sequence' }]));
    await choose(jpeg());
    const results = await screen.findByTestId('search-results');
    const badges = within(results).getAllByTestId('match-badge');
    expect(badges.map((b) => [b.dataset.matchedBy, b.textContent])).toEqual([['sequence', 'ภาพต่อเนื่อง']]);
    const [badge] = badges;
    expect(badge?.closest('[data-testid="photo-card"]')).toHaveAttribute('data-photo-id', '2');
    expect(badge?.getAttribute('title')).toContain('ช่างภาพคนเดียวกัน');
  });

  it('shows the searching spinner between the upload and the answer', async () => {
    const { fn } = setup(makeEvent(), searchAnswer([makePhoto(5)]));
    // Hold the search answer until the spinner was seen.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.stubGlobal('fetch', async (input: Request) => {
      if (new URL(input.url).pathname === '/v2/facesearch') await gate;
      return fn(input);
    });
    await choose(jpeg());
    expect(await screen.findByTestId('search-spinner')).toHaveTextContent('กำลังค้นหารูปของคุณ');
    expect(screen.getByTestId('selfie-input')).toBeDisabled();
    release();
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
    expect(screen.queryByTestId('search-spinner')).not.toBeInTheDocument();
  });

  it('restores the latest search of the event when the page opens again', async () => {
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: [makePhoto(3)], avg_price: 120 }),
    );
    const { calls } = setup(makeEvent());
    const results = await screen.findByTestId('search-results');
    expect(within(results).getByTestId('photo-card')).toHaveAttribute('data-photo-id', '3');
    expect(keys(calls)).not.toContain('POST /v2/facesearch');
  });

  it('says not found, suggesting another photo or the admin', async () => {
    setup(makeEvent(), {
      'POST /v2/facesearch/sign': SIGNED,
      'POST /v2/facesearch': { status: 'success', image_length: 0, images: [], avg_price: 0, reason: 'no_face' },
    });
    await choose(jpeg());
    const notFound = await screen.findByTestId('search-not-found');
    expect(notFound).toHaveTextContent('ไม่พบใบหน้าในรูปที่อัปโหลด');
    expect(notFound).toHaveTextContent('@raceshot');
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
  });

  it('shows the error text of a failed search and enables the upload again', async () => {
    setup(makeEvent(), {
      'POST /v2/facesearch/sign': SIGNED,
      'POST /v2/facesearch': errorResponse(503, 'busy'),
    });
    await choose(jpeg());
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('การค้นหาผิดพลาด กรุณาลองใหม่');
    expect(error).toHaveTextContent('ขณะนี้มีผู้ใช้งานจำนวนมาก');
    expect(screen.getByTestId('selfie-input')).toBeEnabled();
  });

  it('shows the error code of a refused upload', async () => {
    FakeXhr.answer = { status: 415, text: '{"status":"error","code":"unsupported_image_type","message":"x"}' };
    const { calls } = setup(makeEvent(), searchAnswer([makePhoto(1)]));
    await choose(jpeg());
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('อัปโหลดหรือค้นหาผิดพลาด กรุณาลองใหม่');
    expect(error).toHaveTextContent('กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น');
    expect(keys(calls)).not.toContain('POST /v2/facesearch');
  });
});

describe('new photos since the search', () => {
  const ARRIVALS = `GET /api/events/${KEY}/arrivals`;
  beforeEach(() => {
    english();
    forgetLatestQueries();
  });

  it('tells of photos made searchable since, and searches again with the same selfie', async () => {
    const { calls } = setup(makeEvent(), {
      ...searchAnswer([makePhoto(1)]),
      [ARRIVALS]: { new_photos: 3, as_of: 1_800_000_000_000 },
    });
    await choose(jpeg());
    await screen.findByTestId('search-results');
    const notice = await screen.findByTestId('new-photos');
    expect(notice).toHaveTextContent('3 new photos since you searched');
    // The moment was asked before the search, and kept with it.
    expect(keys(calls).indexOf(ARRIVALS)).toBeLessThan(keys(calls).indexOf('POST /v2/facesearch'));
    const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { since?: number };
    expect(latest.since).toBe(1_800_000_000_000);

    await userEvent.click(within(notice).getByRole('button', { name: 'Search again' }));
    await waitFor(() => expect(keys(calls).filter((k) => k === 'POST /v2/facesearch')).toHaveLength(2));
    expect(keys(calls).filter((k) => k === 'POST /v2/facesearch/sign')).toHaveLength(2);
    // The same selfie went up again: nothing was chosen.
    expect(FakeXhr.instances).toHaveLength(2);
    expect(FakeXhr.instances[1]!.body).toBe(FakeXhr.instances[0]!.body);
  });

  it('says nothing while no photo arrived', async () => {
    setup(makeEvent(), { ...searchAnswer([makePhoto(1)]), [ARRIVALS]: { new_photos: 0, as_of: 5 } });
    await choose(jpeg());
    await screen.findByTestId('search-results');
    await waitFor(() => expect(screen.queryByTestId('search-spinner')).not.toBeInTheDocument());
    expect(screen.queryByTestId('new-photos')).not.toBeInTheDocument();
  });

  it('after a reload, asks for the selfie again, since the page kept none', async () => {
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: [makePhoto(3)], avg_price: 120, since: 5 }),
    );
    const { calls } = setup(makeEvent(), { [ARRIVALS]: { new_photos: 2, as_of: 9 } });
    const notice = await screen.findByTestId('new-photos');
    expect(notice).toHaveTextContent('2 new photos since you searched');
    expect(notice).toHaveTextContent('Choose your selfie again');
    expect(within(notice).queryByRole('button')).not.toBeInTheDocument();
    expect(calls.find((c) => c.key === ARRIVALS)).toBeDefined();
  });

  it('after a reload, searches a bib again by itself', async () => {
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: [makePhoto(3)], avg_price: 120, bib: '42', since: 5 }),
    );
    const { calls } = setup(makeEvent(), {
      [ARRIVALS]: { new_photos: 1, as_of: 9 },
      'POST /v1/bibsearch': { status: 'success', image_length: 1, images: [makePhoto(4)], avg_price: 80, found_ref: FOUND_REF },
    });
    const notice = await screen.findByTestId('new-photos');
    await userEvent.click(within(notice).getByRole('button', { name: 'Search again' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/bibsearch')?.body).toEqual({ event_key: KEY, bib: '42' }),
    );
  });
});

describe('slots other features fill', () => {
  /** Stand-ins for the app's parts: what they were given, shown. */
  const slots: Slots = {
    afterFaceSearch: ({ eventKey, selfie }) => <p data-testid="after-face-search">{`${eventKey} ${selfie.name}`}</p>,
    eventNotice: () => <p data-testid="event-notice">notice</p>,
  };
  const withSlots = { slots };

  beforeEach(() => forgetLatestQueries());

  it('put the event’s notice at the top, search or not', async () => {
    setup(makeEvent(), {}, withSlots);
    expect(await screen.findByTestId('event-notice')).toBeInTheDocument();
    expect(screen.queryByTestId('after-face-search')).not.toBeInTheDocument();
  });

  it('follow a face search that found photos with the selfie searched with', async () => {
    setup(makeEvent(), searchAnswer([makePhoto(1)]), withSlots);
    await choose(jpeg('runner.jpg'));
    await screen.findByTestId('search-results');
    expect(screen.getByTestId('after-face-search')).toHaveTextContent(`${KEY} runner.jpg`);
  });

  const nothingFound = (reason: string | null) => ({
    'POST /v2/facesearch/sign': SIGNED,
    'POST /v2/facesearch': { status: 'success', image_length: 0, images: [], avg_price: 0, reason },
  });

  it('follow a face search that found nothing yet', async () => {
    setup(makeEvent(), nothingFound(null), withSlots);
    await choose(jpeg());
    await screen.findByTestId('search-not-found');
    expect(screen.getByTestId('after-face-search')).toBeInTheDocument();
  });

  it('do not follow a selfie without a face', async () => {
    setup(makeEvent(), nothingFound('no_face'), withSlots);
    await choose(jpeg());
    expect(await screen.findByTestId('search-not-found')).toHaveTextContent('ไม่พบใบหน้าในรูปที่อัปโหลด');
    expect(screen.queryByTestId('after-face-search')).not.toBeInTheDocument();
  });

  it('are not offered after a bib search, nor for a search kept from before (no selfie in hand)', async () => {
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: [makePhoto(3)], avg_price: 120 }),
    );
    setup(
      makeEvent(),
      { 'POST /v1/bibsearch': { status: 'success', image_length: 1, images: [makePhoto(4)], avg_price: 80, found_ref: FOUND_REF } },
      withSlots,
    );
    await screen.findByTestId('search-results');
    expect(screen.queryByTestId('after-face-search')).not.toBeInTheDocument();
    await userEvent.type(screen.getByTestId('bib-input'), '42');
    await userEvent.click(screen.getByTestId('bib-submit'));
    await waitFor(() => expect(screen.getByTestId('photo-card')).toHaveAttribute('data-photo-id', '4'));
    expect(screen.queryByTestId('after-face-search')).not.toBeInTheDocument();
  });
});

describe('search and upload failures', () => {
  beforeEach(() => english());

  it('says "error from search" when the search answers without success', async () => {
    setup(makeEvent(), {
      'POST /v2/facesearch/sign': SIGNED,
      'POST /v2/facesearch': { status: 'error', image_length: 0, images: [], avg_price: 0, reason: null },
    });
    await choose(jpeg());
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('Error from search, try again.');
    expect(error).not.toHaveTextContent('upload');
    // The search is reset: the upload works again and no results are left.
    expect(screen.getByTestId('selfie-input')).toBeEnabled();
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
  });

  it('says "error from upload or search" when signing fails', async () => {
    const { calls } = setup(makeEvent(), {
      'POST /v2/facesearch/sign': errorResponse(500, 'internal', { body: { message: 'x' } }),
    });
    await choose(jpeg());
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('Error from upload or search, please retry.');
    expect(error).not.toHaveTextContent('Error from search, try again.');
    expect(keys(calls)).not.toContain('POST /v2/facesearch');
  });

  it('says "error from upload or search" when the connection drops during the upload', async () => {
    FakeXhr.networkError = true;
    const { calls } = setup(makeEvent(), searchAnswer([makePhoto(1)]));
    await choose(jpeg());
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('Error from upload or search, please retry.');
    expect(error).toHaveTextContent('Cannot connect');
    expect(keys(calls)).not.toContain('POST /v2/facesearch');
  });

  it('says "error from upload or search" when the search call gets no answer', async () => {
    const { fn } = setup(makeEvent(), searchAnswer([makePhoto(1)]));
    vi.stubGlobal('fetch', async (input: Request) => {
      if (new URL(input.url).pathname === '/v2/facesearch') throw new TypeError('Failed to fetch');
      return fn(input);
    });
    await choose(jpeg());
    expect(await screen.findByTestId('search-error')).toHaveTextContent('Error from upload or search, please retry.');
  });
});

describe('mass-buy events and a filled cart', () => {
  const inCart = [{ ...makePhoto(50), event_key: KEY, atc: 'Y' }];

  it('keeps the cart and searches nothing when the visitor cancels', async () => {
    localStorage.setItem('cart', JSON.stringify(inCart));
    const { calls } = setup(makeEvent({ is_mhao: 'Y', mhao_price: 500 }), searchAnswer([makePhoto(1)]));
    await choose(jpeg());
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('รูปในตะกร้าจะถูกลบทั้งหมด');
    await userEvent.click(within(dialog).getByRole('button', { name: 'ยกเลิก' }));
    expect(storedIds('cart')).toEqual([50]);
    expect(keys(calls)).not.toContain('POST /v2/facesearch/sign');
    expect(screen.getByTestId<HTMLInputElement>('selfie-input').value).toBe('');
  });

  it('clears the cart and searches when the visitor agrees', async () => {
    localStorage.setItem('cart', JSON.stringify(inCart));
    setup(makeEvent({ is_mhao: 'Y', mhao_price: 500 }), searchAnswer([makePhoto(1)]));
    await choose(jpeg());
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'ลบและค้นหา' }));
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
    expect(localStorage.getItem('cart')).toBeNull();
  });

  it('does not ask when the event has no all-photos deal', async () => {
    localStorage.setItem('cart', JSON.stringify(inCart));
    setup(makeEvent(), searchAnswer([makePhoto(1)]));
    await choose(jpeg());
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
    expect(storedIds('cart')).toEqual([50]);
  });
});

describe('cart actions', () => {
  it('adds a photo once, toggles to remove, logs each change and sets the flag to NO', async () => {
    localStorage.setItem('_event_can_mhao', 'YES');
    const { calls } = setup(makeEvent(), searchAnswer([makePhoto(1), makePhoto(2)]));
    await choose(jpeg());
    const results = await screen.findByTestId('search-results');
    const card = within(results).getAllByTestId('photo-card')[0]!;

    await userEvent.click(within(card).getByTestId('add-to-cart'));
    expect(storedIds('cart')).toEqual([1]);
    expect(card).toHaveClass('photo-card', 'in-cart');
    expect(localStorage.getItem('_event_can_mhao')).toBe('NO');

    await userEvent.click(within(card).getByTestId('remove-from-cart'));
    expect(storedIds('cart')).toEqual([]);
    expect(card).not.toHaveClass('in-cart');

    await userEvent.click(within(card).getByTestId('add-to-cart'));
    await userEvent.click(within(within(results).getAllByTestId('photo-card')[1]!).getByTestId('add-to-cart'));
    expect(storedIds('cart')).toEqual([1, 2]);
    expect(screen.getByTestId('cart-link')).toHaveTextContent('ไปที่ตะกร้า (2 รูป)');

    await waitFor(() => expect(keys(calls).filter((k) => k === 'POST /v1/logs/')).toHaveLength(4));
    const logs = calls.filter((c) => c.key === 'POST /v1/logs/').map((c) => c.body);
    expect(logs[0]).toEqual({ service: 'cart', cart_count: 1, image_id: 1, list: '1', event_key: KEY });
    expect(logs[1]).toEqual({ service: 'cart', cart_count: 0, image_id: 1, list: '', event_key: KEY });
    expect(logs[3]).toEqual({ service: 'cart', cart_count: 2, image_id: 2, list: '1,2', event_key: KEY });
  });

  it('never stores a photo twice', async () => {
    localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(1), event_key: KEY, atc: 'Y' }]));
    setup(makeEvent(), searchAnswer([makePhoto(1), makePhoto(2)]));
    await choose(jpeg());
    const results = await screen.findByTestId('search-results');
    // Already in the cart: offered for removal, not for adding again.
    const first = within(results).getAllByTestId('photo-card')[0]!;
    expect(within(first).queryByTestId('add-to-cart')).not.toBeInTheDocument();
    await userEvent.click(within(results).getByTestId('add-to-cart'));
    expect(storedIds('cart')).toEqual([1, 2]);
  });

  it('ignores a failed log', async () => {
    setup(
      makeEvent(),
      { ...searchAnswer([makePhoto(1)]), 'POST /v1/logs/': new Response('nope', { status: 500 }) },
    );
    await choose(jpeg());
    await userEvent.click(await screen.findByTestId('add-to-cart'));
    expect(storedIds('cart')).toEqual([1]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('buy all', () => {
  it('replaces the cart with every photo found, sets the flag YES and opens the cart', async () => {
    localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(77), event_key: 'other', atc: 'Y' }]));
    setup(
      makeEvent({ is_mhao: 'Y', mhao_price: 500, caption_button_buy_all: 'เหมาทุกรูป' }),
      searchAnswer([makePhoto(1), makePhoto(2), makePhoto(3)], 166.67),
    );
    await choose(jpeg());
    // The cart had photos: the new search asks first.
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'ลบและค้นหา' }));
    await screen.findByTestId('search-results');
    const dealButton = screen.getByTestId('buy-all');
    expect(dealButton).toHaveTextContent('เหมาทุกรูป');
    expect(dealButton).toHaveTextContent('เฉลี่ยรูปละ 166.67 บาท');
    await userEvent.click(dealButton);
    expect(await screen.findByText('cart page')).toBeInTheDocument();
    expect(storedIds('cart')).toEqual([1, 2, 3]);
    // Each photo remembers the search that found it: the deal covers those.
    const cart = JSON.parse(localStorage.getItem('cart') ?? '[]') as { found_ref?: string }[];
    expect(cart.map((i) => i.found_ref)).toEqual([FOUND_REF, FOUND_REF, FOUND_REF]);
    // Stored raw, as the bare word, and only for the standard cart.
    expect(localStorage.getItem('_event_can_mhao')).toBe('YES');
    expect(localStorage.getItem('_mhao_price')).toBe('500');
    expect(localStorage.getItem('_event_can_mhao_wholesale')).toBeNull();
  });

  it('is refused with an explanation when no photos were found', async () => {
    localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(77), event_key: KEY, atc: 'Y' }]));
    setup(makeEvent({ is_mhao: 'Y', mhao_price: 500 }));
    const dealButton = await screen.findByTestId('buy-all');
    expect(dealButton).toHaveTextContent('ซื้อทุกรูป');
    await userEvent.click(dealButton);
    expect(await screen.findByRole('dialog')).toHaveTextContent('กรุณาอัปโหลดรูปใบหน้า');
    expect(storedIds('cart')).toEqual([77]);
    expect(localStorage.getItem('_event_can_mhao')).toBeNull();
  });

  it('is absent when the event has no all-photos deal', async () => {
    setup(makeEvent());
    await screen.findByTestId('selfie-input');
    expect(screen.queryByTestId('buy-all')).not.toBeInTheDocument();
  });
});

describe('free-download events', () => {
  it('offers download links instead of add buttons, and a bulk download', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    setup(makeEvent({ is_free_download: 'Y' }), searchAnswer([makePhoto(1), makePhoto(2)]));
    await choose(jpeg());
    const results = await screen.findByTestId('search-results');
    const links = within(results).getAllByTestId('download-photo');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      `/api/events/${KEY}/photos/1/download?openExternalBrowser=1`,
      `/api/events/${KEY}/photos/2/download?openExternalBrowser=1`,
    ]);
    expect(links[0]).toHaveAttribute('download');
    expect(within(results).queryByTestId('add-to-cart')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('bulk-download'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('ป๊อปอัป');
    expect(dialog).toHaveTextContent('iOS');
    await userEvent.click(within(dialog).getByRole('button', { name: 'ดาวน์โหลด' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(2));
    expect(open).toHaveBeenNthCalledWith(1, `/api/events/${KEY}/photos/1/download?openExternalBrowser=1`, '_blank');
  });
});

describe('not me', () => {
  const remembered = (ids: number[], avg = 80) =>
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: ids.map(makePhoto), avg_price: avg }),
    );
  const storedSearch = () =>
    JSON.parse(localStorage.getItem('latest_search') ?? 'null') as {
      event_key: string;
      wholesale: boolean;
      images: PhotoBody[];
      avg_price: number;
    } | null;
  const cardIds = () => screen.getAllByTestId('photo-card').map((c) => Number(c.getAttribute('data-photo-id')));
  const logBodies = (calls: { key: string; body: unknown }[]) =>
    calls.filter((c) => c.key === 'POST /v1/logs/').map((c) => c.body);

  it('takes the card out of the results and says so, leaving a cart without it alone', async () => {
    localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(2), event_key: KEY, atc: 'Y' }]));
    localStorage.setItem('_event_can_mhao', 'YES');
    const { calls } = setup(makeEvent(), searchAnswer([makePhoto(1), makePhoto(2), makePhoto(3)]));
    await choose(jpeg());
    await screen.findByTestId('search-results');

    await userEvent.click(screen.getByRole('button', { name: 'ไม่ใช่ฉัน — รูปที่ 1' }));
    expect(cardIds()).toEqual([2, 3]);
    expect(screen.getByTestId('search-count')).toHaveTextContent('พบ 2 รูป');
    expect(await screen.findByText('นำออกจากผลการค้นหาแล้ว')).toBeInTheDocument();
    // Photo 1 was not in the cart: the cart, its deal and the log are untouched.
    expect(storedIds('cart')).toEqual([2]);
    expect(localStorage.getItem('_event_can_mhao')).toBe('YES');
    // A change that does log, to be sure no log of the dismissal came before it.
    await userEvent.click(within(screen.getAllByTestId('photo-card')[1]!).getByTestId('add-to-cart'));
    await waitFor(() => expect(logBodies(calls)).toHaveLength(1));
    expect(logBodies(calls)[0]).toMatchObject({ image_id: 3, list: '2,3' });
  });

  it('takes the photo out of the cart, leaves the all-photos deal and logs the removal', async () => {
    localStorage.setItem('cart', JSON.stringify([1, 2].map((id) => ({ ...makePhoto(id), event_key: KEY, atc: 'Y' }))));
    localStorage.setItem('_event_can_mhao', 'YES');
    remembered([1, 2, 3]);
    const { calls } = setup(makeEvent());
    const card = (await screen.findAllByTestId('photo-card'))[0]!;
    expect(card).toHaveClass('in-cart');

    await userEvent.click(within(card).getByTestId('not-me'));
    expect(cardIds()).toEqual([2, 3]);
    expect(storedIds('cart')).toEqual([2]);
    expect(localStorage.getItem('_event_can_mhao')).toBe('NO');
    expect(screen.getByTestId('cart-link')).toHaveTextContent('ไปที่ตะกร้า (1 รูป)');
    await waitFor(() => expect(logBodies(calls)).toHaveLength(1));
    expect(logBodies(calls)[0]).toEqual({ service: 'cart', cart_count: 1, image_id: 1, list: '2', event_key: KEY });
  });

  it('is kept with the latest search, so the page opens again without the photo', async () => {
    remembered([1, 2, 3], 120);
    const first = setup(makeEvent());
    await userEvent.click(await screen.findByRole('button', { name: 'ไม่ใช่ฉัน — รูปที่ 2' }));
    // The server's average was for three photos: it is dropped (0), never shown for two.
    expect(storedSearch()).toEqual({ event_key: KEY, wholesale: false, images: [makePhoto(1), makePhoto(3)], avg_price: 0 });

    first.unmount();
    setup(makeEvent());
    await screen.findByTestId('search-results');
    expect(cardIds()).toEqual([1, 3]);
    expect(screen.getByTestId('search-count')).toHaveTextContent('พบ 2 รูป');
  });

  it('leaves buy-all with exactly the photos still shown, without the stale average', async () => {
    remembered([1, 2, 3]);
    setup(makeEvent({ is_mhao: 'Y', mhao_price: 500 }));
    expect(await screen.findByTestId('avg-price')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'ไม่ใช่ฉัน — รูปที่ 2' }));
    expect(screen.queryByTestId('avg-price')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('buy-all'));
    expect(await screen.findByText('cart page')).toBeInTheDocument();
    expect(storedIds('cart')).toEqual([1, 3]);
    expect(localStorage.getItem('_event_can_mhao')).toBe('YES');
  });

  it('goes back to idle with no search kept when the last photo goes', async () => {
    setup(makeEvent(), searchAnswer([makePhoto(1)]));
    await choose(jpeg());
    await userEvent.click(await screen.findByTestId('not-me'));
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
    expect(screen.queryByTestId('search-count')).not.toBeInTheDocument();
    expect(screen.queryByTestId('search-not-found')).not.toBeInTheDocument();
    expect(localStorage.getItem('latest_search')).toBeNull();
    // Idle: the highlight is back and a new search can start.
    expect(await screen.findByTestId('highlight-gallery')).toBeInTheDocument();
    expect(screen.getByTestId('selfie-input')).toBeEnabled();
  });

  it('is on every card of a free-download event, and the bulk download follows', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    remembered([1, 2]);
    setup(makeEvent({ is_free_download: 'Y' }));
    const results = await screen.findByTestId('search-results');
    expect(within(results).getAllByTestId('not-me')).toHaveLength(2);
    await userEvent.click(within(results).getAllByTestId('not-me')[0]!);
    expect(within(results).getAllByTestId('download-photo').map((a) => a.getAttribute('href'))).toEqual([
      `/api/events/${KEY}/photos/2/download?openExternalBrowser=1`,
    ]);
    await userEvent.click(screen.getByTestId('bulk-download'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('ดาวน์โหลดทุกรูป (1 รูป)');
  });

  it.each([
    ['th', 'ไม่ใช่ฉัน', 'ไม่ใช่ฉัน — รูปที่ 4', 'นำออกจากผลการค้นหาแล้ว'],
    ['en', 'Not me', 'Not me — photo 4', 'Removed from your results'],
  ])('speaks %s: its text, a name starting with it and naming the photo, and the toast', async (lang, text, name, toast) => {
    localStorage.setItem('currentLanguage', lang);
    remembered([4, 5]);
    setup(makeEvent());
    const button = await screen.findByRole('button', { name });
    expect(button).toHaveAttribute('data-testid', 'not-me');
    expect(button.textContent).toBe(text);
    // WCAG 2.5.3: the accessible name begins with the visible label.
    expect(button.getAttribute('aria-label')?.startsWith(button.textContent)).toBe(true);
    await userEvent.click(button);
    expect(await screen.findByText(toast)).toBeInTheDocument();
  });
});

describe('bib search', () => {
  const byBib = (id: number): PhotoBody => ({ ...makePhoto(id), similarity: null, matched_by: 'bib' });
  const byFace = (id: number): PhotoBody => ({ ...makePhoto(id), matched_by: 'face' });
  const bibAnswer = (images: PhotoBody[], avg = 80) => ({
    'POST /v1/bibsearch': { status: 'success', image_length: images.length, images, avg_price: avg, found_ref: FOUND_REF },
  });
  async function searchBib(bib: string) {
    const input = await screen.findByTestId('bib-input');
    await userEvent.clear(input);
    await userEvent.type(input, bib);
    await userEvent.click(screen.getByTestId('bib-submit'));
  }

  it('is a text field for any keyboard, beside the selfie upload', async () => {
    setup(makeEvent());
    const input = await screen.findByTestId('bib-input');
    expect(input).toHaveAttribute('autocomplete', 'off');
    expect(input).toHaveAttribute('inputmode', 'text');
    expect(input).toHaveAttribute('maxlength', '32');
    expect(input).toHaveAttribute('enterkeyhint', 'search');
    expect(screen.getByRole('heading', { name: 'ค้นหาด้วยหมายเลขบิบ' })).toBeInTheDocument();
    expect(screen.getByTestId('selfie-input')).toBeInTheDocument();
  });

  it('searches the typed bib and shows the photos with how each was found', async () => {
    const { calls } = setup(makeEvent(), bibAnswer([byBib(1), byBib(2), byFace(3)]));
    await searchBib('A 0042');
    const results = await screen.findByTestId('search-results');
    expect(calls.find((c) => c.key === 'POST /v1/bibsearch')?.body).toEqual({ event_key: KEY, bib: 'A 0042' });
    // Nothing was uploaded for it.
    expect(keys(calls)).not.toContain('POST /v2/facesearch/sign');
    const cards = within(results).getAllByTestId('photo-card');
    expect(cards.map((c) => c.getAttribute('data-photo-id'))).toEqual(['1', '2', '3']);
    const badges = within(results).getAllByTestId('match-badge');
    expect(badges.map((b) => [b.dataset.matchedBy, b.textContent])).toEqual([
      ['bib', 'บิบ'],
      ['bib', 'บิบ'],
      ['face', 'ใบหน้า'],
    ]);
    expect(screen.getByTestId('search-count')).toHaveTextContent('พบ 3 รูปของบิบ A 0042');
    // Kept as the latest search, like a selfie's results.
    const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { images: PhotoBody[]; bib: string };
    expect(latest.images.map((p) => [p.id, p.matched_by])).toEqual([
      [1, 'bib'],
      [2, 'bib'],
      [3, 'face'],
    ]);
    expect(latest.bib).toBe('A 0042');
  });

  it('speaks English on the badges', async () => {
    english();
    setup(makeEvent(), bibAnswer([byBib(1), byFace(2)]));
    await searchBib('42');
    const results = await screen.findByTestId('search-results');
    expect(within(results).getAllByTestId('match-badge').map((b) => b.textContent)).toEqual(['Bib', 'Face']);
    expect(screen.getByTestId('search-count')).toHaveTextContent('2 photos of bib 42');
  });

  it('speaks English on the sequence badge', async () => {
    english();
    setup(makeEvent(), searchAnswer([{ ...makePhoto(4), matched_by: 'sequence' }]));
    await choose(jpeg());
    const badge = within(await screen.findByTestId('search-results')).getByTestId('match-badge');
    expect(badge).toHaveTextContent('Burst');
    expect(badge.getAttribute('title')).toContain('same photographer');
  });

  it('comes back with its badges and bib when the page opens again', async () => {
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: [byBib(3), byFace(4)], avg_price: 50, bib: '77' }),
    );
    const { calls } = setup(makeEvent());
    const results = await screen.findByTestId('search-results');
    expect(within(results).getAllByTestId('match-badge')).toHaveLength(2);
    expect(screen.getByTestId('search-count')).toHaveTextContent('พบ 2 รูปของบิบ 77');
    expect(screen.getByTestId('bib-input')).toHaveValue('77');
    expect(keys(calls)).not.toContain('POST /v1/bibsearch');
  });

  it('puts its photos in the cart one by one, and "not me" takes one out of the results', async () => {
    setup(makeEvent(), bibAnswer([byBib(1), byFace(2)]));
    await searchBib('1234');
    const results = await screen.findByTestId('search-results');
    await userEvent.click(within(within(results).getAllByTestId('photo-card')[1]!).getByTestId('add-to-cart'));
    expect(storedIds('cart')).toEqual([2]);
    const stored = JSON.parse(localStorage.getItem('cart') ?? '[]') as { id: number; event_key: string; atc: string }[];
    expect(stored[0]).toMatchObject({ id: 2, event_key: KEY, atc: 'Y' });
    expect(screen.getByTestId('cart-link')).toHaveTextContent('ไปที่ตะกร้า (1 รูป)');
    await userEvent.click(screen.getByRole('button', { name: 'ไม่ใช่ฉัน — รูปที่ 1' }));
    expect(within(results).getAllByTestId('photo-card').map((c) => c.getAttribute('data-photo-id'))).toEqual(['2']);
  });

  it('buys all the photos of the bib at the deal price', async () => {
    setup(makeEvent({ is_mhao: 'Y', mhao_price: 500 }), bibAnswer([byBib(1), byBib(2), byFace(3)], 166.67));
    await searchBib('1234');
    await screen.findByTestId('search-results');
    expect(screen.getByTestId('avg-price')).toHaveTextContent('เฉลี่ยรูปละ 166.67 บาท');
    await userEvent.click(screen.getByTestId('buy-all'));
    expect(await screen.findByText('cart page')).toBeInTheDocument();
    expect(storedIds('cart')).toEqual([1, 2, 3]);
    expect(localStorage.getItem('_event_can_mhao')).toBe('YES');
    expect(localStorage.getItem('_mhao_price')).toBe('500');
  });

  it('asks before emptying the cart of a deal event, as a selfie search does', async () => {
    localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(50), event_key: KEY, atc: 'Y' }]));
    const { calls } = setup(makeEvent({ is_mhao: 'Y', mhao_price: 500 }), bibAnswer([byBib(1)]));
    await searchBib('1234');
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'ยกเลิก' }));
    expect(keys(calls)).not.toContain('POST /v1/bibsearch');
    expect(storedIds('cart')).toEqual([50]);
  });

  it('offers downloads on a free-download event', async () => {
    setup(makeEvent({ is_free_download: 'Y' }), bibAnswer([byBib(1)]));
    await searchBib('1234');
    const results = await screen.findByTestId('search-results');
    expect(within(results).getByTestId('download-photo')).toHaveAttribute(
      'href',
      `/api/events/${KEY}/photos/1/download?openExternalBrowser=1`,
    );
    expect(screen.getByTestId('bulk-download')).toBeInTheDocument();
  });

  it('says when no photo carries the bib, in its own words', async () => {
    setup(makeEvent(), bibAnswer([]));
    await searchBib('9999');
    const notFound = await screen.findByTestId('search-not-found');
    expect(notFound).toHaveTextContent('ไม่พบรูปของบิบนี้');
    expect(notFound).not.toHaveTextContent('ไม่พบรูปของคุณ');
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
    expect(localStorage.getItem('latest_search')).toBeNull();
  });

  it('says beside the field when the bib is not one of the event, without a failed-search alert', async () => {
    setup(makeEvent(), {
      'POST /v1/bibsearch': errorResponse(422, 'invalid_bib', { body: { errors: [{ field: 'bib', message: 'x' }] } }),
    });
    await searchBib('12345678901');
    const error = await screen.findByTestId('bib-error');
    expect(error).toHaveTextContent('หมายเลขบิบไม่ถูกต้อง');
    expect(screen.getByTestId('bib-input')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('bib-input')).toHaveValue('12345678901');
    expect(screen.queryByTestId('search-error')).not.toBeInTheDocument();
    expect(screen.getByTestId('bib-submit')).toBeEnabled();
  });

  it('tells a refused search by its code', async () => {
    setup(makeEvent(), { 'POST /v1/bibsearch': errorResponse(429, 'rate_limited') });
    await searchBib('1234');
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('การค้นหาผิดพลาด กรุณาลองใหม่');
    expect(error).toHaveTextContent('ทำรายการบ่อยเกินไป');
    expect(screen.queryByTestId('bib-error')).not.toBeInTheDocument();
  });

  it('shows its spinner while the search runs, and blocks the selfie upload', async () => {
    const { fn } = setup(makeEvent(), bibAnswer([byBib(1)]));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.stubGlobal('fetch', async (input: Request) => {
      if (new URL(input.url).pathname === '/v1/bibsearch') await gate;
      return fn(input);
    });
    await searchBib('1234');
    expect(await screen.findByTestId('bib-spinner')).toHaveTextContent('กำลังค้นหารูปของบิบนี้');
    expect(screen.queryByTestId('search-spinner')).not.toBeInTheDocument();
    expect(screen.getByTestId('selfie-input')).toBeDisabled();
    expect(screen.getByTestId('bib-submit')).toBeDisabled();
    release();
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
    expect(screen.queryByTestId('bib-spinner')).not.toBeInTheDocument();
  });

  it('waits for the terms consent, which names the bib search', async () => {
    const { calls } = setup(makeEvent(), bibAnswer([byBib(1)]), { consent: false });
    const dialog = await screen.findByTestId('consent-dialog');
    expect(dialog).toHaveTextContent('การค้นหาด้วยหมายเลขบิบจะใช้ใบหน้าในรูปของอีเวนต์ด้วย');
    // Typed around the dialog anyway (a browser without modal dialogs): nothing is searched.
    await searchBib('1234');
    expect(keys(calls)).not.toContain('POST /v1/bibsearch');
    await userEvent.click(screen.getByTestId('consent-accept'));
    await userEvent.click(screen.getByTestId('bib-submit'));
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
  });

  it('says so in English in the consent dialog', async () => {
    english();
    setup(makeEvent(), {}, { consent: false });
    expect(await screen.findByTestId('consent-dialog')).toHaveTextContent(
      'A bib number search also uses the faces in the event’s photos',
    );
  });
});

describe('group search', () => {
  let signed = 0;
  const signAnswer = () => {
    signed += 1;
    return { ...SIGNED, search_id: `search-${String(signed)}`, file_location: `selfies/search-${String(signed)}.jpg`, url: `${SIGNED.url}&n=${String(signed)}` };
  };
  const groupAnswer = (images: PhotoBody[], extra: Answers = {}) => ({
    'POST /v2/facesearch/sign': signAnswer,
    'POST /v2/facesearch': { status: 'success', image_length: images.length, images, avg_price: 80, reason: null, found_ref: FOUND_REF },
    ...extra,
  });
  const withPeople = (id: number, people: number[]): PhotoBody => ({ ...makePhoto(id), people });
  const created: string[] = [];
  const revoked: string[] = [];

  beforeEach(() => {
    signed = 0;
    created.length = 0;
    revoked.length = 0;
    Object.defineProperty(URL, 'createObjectURL', {
      value: vi.fn((f: File) => {
        const url = `blob:${f.name}`;
        created.push(url);
        return url;
      }),
      configurable: true,
    });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn((u: string) => revoked.push(u)), configurable: true });
  });

  async function addToGroup(file: File) {
    fireEvent.change(await screen.findByTestId('group-input'), { target: { files: [file] } });
  }
  const chipNames = () => screen.getAllByTestId('selfie-chip').map((c) => c.textContent?.replace('×', ''));

  it('starts from the selfie just searched with, adds a friend, and searches them both in one call', async () => {
    const { calls } = setup(
      makeEvent(),
      groupAnswer([withPeople(1, [0]), withPeople(2, [0, 1]), withPeople(3, [1])]),
    );
    await choose(jpeg('me.jpg'));
    await screen.findByTestId('search-results');
    expect(keys(calls).filter((k) => k === 'POST /v2/facesearch/sign')).toHaveLength(1);

    await userEvent.click(screen.getByTestId('add-friend'));
    expect(chipNames()).toEqual(['ฉัน']);
    expect(screen.queryByTestId('match-all')).not.toBeInTheDocument();
    await addToGroup(jpeg('friend.jpg'));
    await waitFor(() => expect(chipNames()).toEqual(['ฉัน', 'เพื่อน 1']));
    expect(screen.getAllByTestId('selfie-chip-thumb').map((i) => i.getAttribute('src'))).toEqual([
      'blob:me.jpg',
      'blob:friend.jpg',
    ]);
    expect(screen.getByTestId('match-all')).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'ทุกคนอยู่ในรูปเดียวกัน' })).toBeInTheDocument();

    FakeXhr.reset();
    await userEvent.click(screen.getByTestId('group-search'));
    const results = await screen.findByTestId('search-count');
    expect(results).toHaveTextContent('พบ 3 รูป');

    // Each selfie is signed and PUT, the search then names them all.
    const signs = calls.filter((c) => c.key === 'POST /v2/facesearch/sign').slice(1);
    expect(signs.map((c) => (c.body as { file_name: string }).file_name)).toEqual(['me.jpg', 'friend.jpg']);
    expect(FakeXhr.instances.map((x) => [x.method, x.url])).toEqual([
      ['PUT', `${SIGNED.url}&n=2`],
      ['PUT', `${SIGNED.url}&n=3`],
    ]);
    const search = calls.filter((c) => c.key === 'POST /v2/facesearch').at(-1)?.body;
    expect(search).toMatchObject({ search_id: 'search-2', file_location: 'selfies/search-2.jpg', search_ids: ['search-3'], match: 'any' });

    const cards = within(screen.getByTestId('search-results')).getAllByTestId('photo-card');
    const people = cards.map((c) => within(c).getAllByTestId('person-chip').map((p) => p.textContent));
    expect(people).toEqual([['ฉัน'], ['ฉัน', 'เพื่อน 1'], ['เพื่อน 1']]);
    const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { people: number };
    expect(latest.people).toBe(2);
  });

  it('asks for the visitor’s own selfie first, then friends, three at most, and searches for all together', async () => {
    english();
    const { calls } = setup(makeEvent(), groupAnswer([]));
    await userEvent.click(await screen.findByTestId('add-friend'));
    expect(screen.queryByTestId('selfie-input')).not.toBeInTheDocument();
    expect(screen.getByTestId('group-search')).toBeDisabled();
    expect(screen.getByText('Choose my face photo')).toBeInTheDocument();
    await addToGroup(jpeg('me.jpg'));
    expect(await screen.findByText('+ Add a friend')).toBeInTheDocument();
    await addToGroup(jpeg('a.jpg'));
    await addToGroup(jpeg('b.jpg'));
    await waitFor(() => expect(chipNames()).toEqual(['Me', 'Friend 1', 'Friend 2']));
    expect(screen.queryByTestId('group-input')).not.toBeInTheDocument();
    expect(screen.getByTestId('group-full')).toHaveTextContent('3 people added');

    await userEvent.click(screen.getByTestId('match-all'));
    await userEvent.click(screen.getByTestId('group-search'));
    const notFound = await screen.findByTestId('search-not-found');
    expect(notFound).toHaveTextContent('No photo shows all of you together');
    expect(calls.find((c) => c.key === 'POST /v2/facesearch')?.body).toMatchObject({
      search_id: 'search-1',
      search_ids: ['search-2', 'search-3'],
      match: 'all',
    });
    expect(FakeXhr.instances).toHaveLength(3);
  });

  it('refuses a wrong file for a friend like the single selfie, without a chip', async () => {
    setup(makeEvent(), groupAnswer([]));
    await userEvent.click(await screen.findByTestId('add-friend'));
    await addToGroup(new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น');
    expect(screen.queryByTestId('selfie-chip')).not.toBeInTheDocument();
  });

  it('revokes a thumbnail when its chip is removed, and all of them when the visitor searches alone again', async () => {
    setup(makeEvent(), groupAnswer([]));
    await userEvent.click(await screen.findByTestId('add-friend'));
    await addToGroup(jpeg('me.jpg'));
    await addToGroup(jpeg('friend.jpg'));
    await waitFor(() => expect(chipNames()).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'ลบรูปของเพื่อน 1' }));
    expect(chipNames()).toEqual(['ฉัน']);
    expect(revoked).toEqual(['blob:friend.jpg']);
    await userEvent.click(screen.getByTestId('group-cancel'));
    expect(revoked).toEqual(['blob:friend.jpg', 'blob:me.jpg']);
    expect(screen.getByTestId('selfie-input')).toBeInTheDocument();
  });

  it('searches a group of one like a single selfie', async () => {
    const { calls } = setup(makeEvent(), groupAnswer([makePhoto(4)]));
    await userEvent.click(await screen.findByTestId('add-friend'));
    await addToGroup(jpeg('me.jpg'));
    await userEvent.click(await screen.findByTestId('group-search'));
    await screen.findByTestId('search-results');
    const body = calls.find((c) => c.key === 'POST /v2/facesearch')?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('search_ids');
    expect(body).not.toHaveProperty('match');
    expect(screen.queryByTestId('person-chip')).not.toBeInTheDocument();
  });

  it('names the friend whose selfie shows no face', async () => {
    setup(makeEvent(), {
      'POST /v2/facesearch/sign': signAnswer,
      'POST /v2/facesearch': errorResponse(422, 'no_face', { body: { field: 'file[1]' } }),
    });
    await userEvent.click(await screen.findByTestId('add-friend'));
    await addToGroup(jpeg('me.jpg'));
    await addToGroup(jpeg('friend.jpg'));
    await userEvent.click(await screen.findByTestId('group-search'));
    const error = await screen.findByTestId('search-error');
    expect(screen.getByTestId('search-error-person')).toHaveTextContent('เพื่อน 1');
    expect(error).toHaveTextContent('ไม่พบใบหน้าในรูปที่อัปโหลด');
    // The group stays, so the friend's photo can be swapped.
    expect(chipNames()).toEqual(['ฉัน', 'เพื่อน 1']);
  });

  it('tells too many selfies', async () => {
    english();
    setup(makeEvent(), {
      'POST /v2/facesearch/sign': signAnswer,
      'POST /v2/facesearch': errorResponse(422, 'too_many_selfies', { body: { field: 'search_ids' } }),
    });
    await userEvent.click(await screen.findByTestId('add-friend'));
    await addToGroup(jpeg('me.jpg'));
    await addToGroup(jpeg('friend.jpg'));
    await userEvent.click(await screen.findByTestId('group-search'));
    const error = await screen.findByTestId('search-error');
    expect(error).toHaveTextContent('At most 3 people can be searched together');
    expect(screen.queryByTestId('search-error-person')).not.toBeInTheDocument();
  });

  it('keeps the people of a group search when the page opens again', async () => {
    localStorage.setItem(
      'latest_search',
      JSON.stringify({ event_key: KEY, wholesale: false, images: [withPeople(3, [1])], avg_price: 120, people: 2 }),
    );
    setup(makeEvent());
    const card = await screen.findByTestId('photo-card');
    expect(within(card).getByTestId('person-chip')).toHaveTextContent('เพื่อน 1');
  });
});
