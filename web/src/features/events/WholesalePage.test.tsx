//! Wholesale page: the not-supported notice, the wholesale packages, the consent shared with
//! the event page, the search on the wholesale cart without per-photo buttons, buy-all
//! into the wholesale cart with its own all-photos flag, and "not me" on the wholesale side.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventBody, PhotoBody } from '@/api/types';
import { consentKey } from '@/lib/storage';
import { fakeFetch, renderWithProviders } from '@/test/render';
import { FakeXhr } from '@/test/fakeXhr';
import { jpeg, makeEvent, makePhoto } from '@/test/fixtures';
import { WholesalePage } from './WholesalePage';

const KEY = 'bkk-10k';

function setup(event: EventBody, images: PhotoBody[] = [], { consent = true } = {}) {
  if (consent) localStorage.setItem(consentKey(KEY), 'Y');
  const net = fakeFetch({
    [`GET /v1/events/${KEY}`]: { status: 'success', ...event },
    'POST /v1/facesearch/highlight': { status: 'success', body: [] },
    'POST /v1/logs/': { status: 'success' },
    'POST /v2/facesearch/sign': {
      status: 'success',
      url: '/v2/facesearch/upload/s1?expires=1&signature=x',
      file_name: 'me.jpg',
      search_id: 's1',
      file_location: 'selfies/s1.jpg',
    },
    'POST /v2/facesearch': { status: 'success', image_length: images.length, images, avg_price: 75, reason: null },
  });
  renderWithProviders(<WholesalePage />, {
    path: '/:eventKey/wholesale',
    route: `/${KEY}/wholesale`,
    routes: [
      { path: '/', element: <p>home page</p> },
      { path: '/:eventKey', element: <p>event page</p> },
      { path: '/404', element: <p>not found page</p> },
      { path: '/cart-wholesale', element: <p>wholesale cart page</p> },
    ],
  });
  return net;
}

const storedIds = (key: string) =>
  (JSON.parse(localStorage.getItem(key) ?? '[]') as { id: number }[]).map((i) => i.id);

async function choose(file: File) {
  fireEvent.change(await screen.findByTestId('selfie-input'), { target: { files: [file] } });
}

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => vi.unstubAllGlobals());

const wholesaleEvent = (extra: Partial<EventBody> = {}) =>
  makeEvent({ is_hybrid: 'Y', is_mhao_hybrid: 'Y', hybrid_mhao_price: 1500, ...extra });

it('says the event does not support the deal when is_hybrid is N, with a way back', async () => {
  setup(makeEvent({ is_hybrid: 'N' }));
  expect(await screen.findByTestId('wholesale-not-supported')).toHaveTextContent(
    'อีเวนต์นี้ไม่รองรับการซื้อแบบเหมาทุกรูป',
  );
  expect(screen.getByTestId('back-to-event')).toHaveAttribute('href', `/${KEY}`);
  expect(screen.queryByTestId('selfie-input')).not.toBeInTheDocument();
});

it('shows the wholesale packages and a way back to package pricing before any result', async () => {
  setup(wholesaleEvent());
  await screen.findByTestId('event-title');
  expect(screen.getAllByTestId('package-chip').map((c) => c.textContent)).toEqual(['เหมา 20 รูป 1,500.00 บาท']);
  // The face search comes in its own chunk, after the header.
  expect(await screen.findByTestId('back-to-pricing')).toHaveAttribute('href', `/${KEY}`);
  expect(screen.getByTestId('buy-all')).toBeInTheDocument();
});

it('searches on the wholesale side without per-photo buttons, then buys all into the wholesale cart', async () => {
  localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(9), event_key: KEY, atc: 'Y' }]));
  setup(wholesaleEvent(), [makePhoto(1), makePhoto(2)]);
  await choose(jpeg());
  const results = await screen.findByTestId('search-results');
  expect(within(results).getAllByTestId('photo-card')).toHaveLength(2);
  expect(within(results).queryByTestId('add-to-cart')).not.toBeInTheDocument();
  expect(screen.queryByTestId('back-to-pricing')).not.toBeInTheDocument();
  const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { wholesale: boolean };
  expect(latest.wholesale).toBe(true);

  await userEvent.click(screen.getByTestId('buy-all'));
  expect(await screen.findByText('wholesale cart page')).toBeInTheDocument();
  expect(storedIds('cart_wholesale')).toEqual([1, 2]);
  // The standard cart is another cart: untouched.
  expect(storedIds('cart')).toEqual([9]);
  // The wholesale cart's own flag, stored raw; the standard cart's flag is untouched.
  expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('YES');
  expect(localStorage.getItem('_mhao_price_wholesale')).toBe('1500');
  expect(localStorage.getItem('_event_can_mhao')).toBeNull();
  expect(localStorage.getItem('_mhao_price')).toBeNull();
});

it('dismisses a photo as not me from the results and the wholesale cart, then buys the rest', async () => {
  localStorage.setItem('cart', JSON.stringify([{ ...makePhoto(1), event_key: KEY, atc: 'Y' }]));
  localStorage.setItem('cart_wholesale', JSON.stringify([{ ...makePhoto(1), event_key: KEY, atc: 'Y' }]));
  localStorage.setItem('_event_can_mhao_wholesale', 'YES');
  localStorage.setItem(
    'latest_search',
    JSON.stringify({ event_key: KEY, wholesale: true, images: [makePhoto(1), makePhoto(2)], avg_price: 75 }),
  );
  const { calls } = setup(wholesaleEvent());
  const results = await screen.findByTestId('search-results');
  // No per-photo cart buttons, but "not me" still.
  expect(within(results).getAllByTestId('not-me')).toHaveLength(2);

  await userEvent.click(within(results).getByRole('button', { name: 'ไม่ใช่ฉัน — รูปที่ 1' }));
  expect(within(results).getAllByTestId('photo-card').map((c) => c.getAttribute('data-photo-id'))).toEqual(['2']);
  expect(storedIds('cart_wholesale')).toEqual([]);
  expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('NO');
  // The standard cart is another cart: untouched.
  expect(storedIds('cart')).toEqual([1]);
  await waitFor(() => expect(calls.filter((c) => c.key === 'POST /v1/logs/')).toHaveLength(1));
  expect(calls.find((c) => c.key === 'POST /v1/logs/')?.body).toMatchObject({ service: 'cart-wholesale', image_id: 1 });
  const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { wholesale: boolean; images: PhotoBody[] };
  expect(latest.wholesale).toBe(true);
  expect(latest.images.map((p) => p.id)).toEqual([2]);

  await userEvent.click(screen.getByTestId('buy-all'));
  expect(await screen.findByText('wholesale cart page')).toBeInTheDocument();
  expect(storedIds('cart_wholesale')).toEqual([2]);
});

it('asks before a new search empties a filled wholesale cart', async () => {
  localStorage.setItem('cart_wholesale', JSON.stringify([{ ...makePhoto(9), event_key: KEY, atc: 'Y' }]));
  setup(wholesaleEvent(), [makePhoto(1)]);
  await choose(jpeg());
  const dialog = await screen.findByRole('dialog');
  await userEvent.click(within(dialog).getByRole('button', { name: 'ลบและค้นหา' }));
  await screen.findByTestId('search-results');
  expect(localStorage.getItem('cart_wholesale')).toBeNull();
});

it('refuses buy-all before any search', async () => {
  setup(wholesaleEvent());
  await userEvent.click(await screen.findByTestId('buy-all'));
  expect(await screen.findByRole('dialog')).toHaveTextContent('กรุณาอัปโหลดรูปใบหน้า');
  expect(localStorage.getItem('cart_wholesale')).toBeNull();
});

it('sends an unknown event to /404', async () => {
  fakeFetch({});
  renderWithProviders(<WholesalePage />, {
    path: '/:eventKey/wholesale',
    route: '/nope/wholesale',
    routes: [{ path: '/404', element: <p>not found page</p> }],
  });
  expect(await screen.findByText('not found page')).toBeInTheDocument();
});

describe('consent', () => {
  it('asks before any face search, with the event page’s storage key', async () => {
    const { calls } = setup(wholesaleEvent(), [makePhoto(1)], { consent: false });
    const dialog = await screen.findByTestId('consent-dialog');
    expect(within(dialog).getByRole('link', { name: 'ข้อกำหนดการใช้งาน' })).toHaveAttribute('href', '/terms-of-use');
    // A selfie chosen before answering is not searched with.
    await choose(jpeg());
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.map((c) => c.key)).not.toContain('POST /v2/facesearch/sign');
    expect(FakeXhr.instances).toHaveLength(0);

    await userEvent.click(within(dialog).getByTestId('consent-accept'));
    expect(localStorage.getItem(`consent_${KEY}`)).toBe('Y');
    expect(screen.queryByTestId('consent-dialog')).not.toBeInTheDocument();
    await choose(jpeg());
    expect(await screen.findByTestId('search-results')).toBeInTheDocument();
  });

  it('is not asked again when given on the event page', async () => {
    localStorage.setItem(`consent_${KEY}`, 'Y');
    setup(wholesaleEvent(), [], { consent: false });
    await screen.findByTestId('event-title');
    expect(screen.queryByTestId('consent-dialog')).not.toBeInTheDocument();
  });

  it('sends a visitor who declines home', async () => {
    setup(wholesaleEvent(), [], { consent: false });
    await userEvent.click(await screen.findByTestId('consent-decline'));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(localStorage.getItem(`consent_${KEY}`)).toBeNull();
  });
});

it('searches by bib on the wholesale side too, kept apart from the event page, and buys all into the wholesale cart', async () => {
  const { calls, fn } = setup(wholesaleEvent());
  const images = [
    { ...makePhoto(1), matched_by: 'bib' as const },
    { ...makePhoto(2), matched_by: 'face' as const },
  ];
  vi.stubGlobal('fetch', async (input: Request) =>
    new URL(input.url).pathname === '/v1/bibsearch'
      ? new Response(JSON.stringify({ status: 'success', image_length: 2, images, avg_price: 750 }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        })
      : fn(input),
  );
  await userEvent.type(await screen.findByTestId('bib-input'), '1234');
  await userEvent.click(screen.getByTestId('bib-submit'));
  const results = await screen.findByTestId('search-results');
  expect(within(results).getAllByTestId('match-badge').map((b) => b.dataset.matchedBy)).toEqual(['bib', 'face']);
  // The wholesale page buys only all the photos: no per-photo buttons.
  expect(within(results).queryByTestId('add-to-cart')).not.toBeInTheDocument();
  const latest = JSON.parse(localStorage.getItem('latest_search') ?? 'null') as { wholesale: boolean; bib: string };
  expect(latest).toMatchObject({ wholesale: true, bib: '1234' });
  expect(calls.some((c) => c.key === 'POST /v2/facesearch/sign')).toBe(false);
  await userEvent.click(screen.getByTestId('buy-all'));
  expect(await screen.findByText('wholesale cart page')).toBeInTheDocument();
  expect(storedIds('cart_wholesale')).toEqual([1, 2]);
  expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('YES');
});
