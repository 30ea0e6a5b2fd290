//! Event page: header and sale states, consent, selfie checks, the three-step face search,
//! the cart actions and their storage, buy-all, free downloads, "not me" on the results and
//! the unknown event.

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventBody, PhotoBody } from '@/api/types';
import { consentKey } from '@/lib/storage';
import { errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { EventPage } from './EventPage';
import { FakeXhr } from '@/test/fakeXhr';
import { jpeg, makeEvent, makePhoto } from './testData';

const KEY = 'bkk-10k';
const SIGNED = {
  status: 'success',
  url: 'https://uploads.example/selfie/abc?signature=x',
  file_name: 'me.jpg',
  search_id: 'search-1',
  file_location: 'selfies/search-1.jpg',
};

type Answers = Parameters<typeof fakeFetch>[0];

function setup(event: EventBody, extra: Answers = {}, { consent = true } = {}) {
  if (consent) localStorage.setItem(consentKey(KEY), 'Y');
  const net = fakeFetch({
    [`GET /v1/events/${KEY}`]: { status: 'success', ...event },
    'POST /v1/facesearch/highlight': { status: 'success', body: [makePhoto(900)] },
    'POST /v1/logs/': { status: 'success' },
    ...extra,
  });
  const view = renderWithProviders(<EventPage />, {
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

const searchAnswer = (images: PhotoBody[], avg = 80) => ({
  'POST /v2/facesearch/sign': SIGNED,
  'POST /v2/facesearch': { status: 'success', image_length: images.length, images, avg_price: avg, reason: null },
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

  it('says End of sale when closed and allows no search', async () => {
    setup(makeEvent({ close_sale: 'Y' }));
    expect(await screen.findByTestId('sale-closed')).toHaveTextContent('End of sale');
    expect(screen.queryByTestId('selfie-input')).not.toBeInTheDocument();
  });

  it('links to the wholesale and manual pages when the event has them', async () => {
    setup(makeEvent({ is_hybrid: 'Y', is_event_stage: 'Y' }));
    expect(await screen.findByTestId('wholesale-link')).toHaveAttribute('href', `/${KEY}/wholesale`);
    expect(screen.getByTestId('manual-link')).toHaveAttribute('href', `/${KEY}/manual`);
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

describe('search and upload failures (spec §8)', () => {
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
    expect((screen.getByTestId('selfie-input') as HTMLInputElement).value).toBe('');
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
    // Stored raw, as the spec writes it, and only for the standard cart.
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
