//! Manual search page: the listing in the order taken with each photo's time and bibs, the
//! body sent for each filter and page, the cart toggles (downloads on free events), and the
//! bib search replacing the listing until the visitor goes back to it.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventBody, ManualPhoto, ManualRequest, PhotoBody } from '@/api/types';
import { consentKey } from '@/lib/storage';
import { errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { ManualPage } from './ManualPage';
import { makeEvent, makePhoto } from '@/test/fixtures';

const KEY = 'bkk-10k';

const manualPhoto = (id: number, time: string, bibs: string[] = []): ManualPhoto => ({
  ...makePhoto(id),
  similarity: null,
  taken_at: `2025-01-12 ${time}`,
  bibs,
});

const FIRST_PAGE = [
  manualPhoto(11, '06:01:05', ['1234']),
  manualPhoto(12, '06:01:09', ['1234', 'F77']),
  { ...manualPhoto(13, '06:02:00'), taken_at: null },
];

type Answers = Parameters<typeof fakeFetch>[0];

function setup(event: EventBody = makeEvent({ is_event_stage: 'Y' }), extra: Answers = {}, total = FIRST_PAGE.length) {
  localStorage.setItem(consentKey(KEY), 'Y');
  const net = fakeFetch({
    [`GET /v1/events/${KEY}`]: { status: 'success', ...event },
    'POST /v1/logs/': { status: 'success' },
    'POST /v1/manual': (body: unknown) => ({
      status: 'success',
      body: FIRST_PAGE,
      total,
      page: (body as ManualRequest).page ?? 1,
      page_size: 18,
      photographers: [
        { photographer_id: 0, photos: 30 },
        { photographer_id: 8, photos: 10 },
      ],
    }),
    ...extra,
  });
  const view = renderWithProviders(<ManualPage />, {
    path: '/:eventKey/manual',
    route: `/${KEY}/manual`,
    routes: [
      { path: '/', element: <p>home page</p> },
      { path: '/:eventKey', element: <p>event page</p> },
      { path: '/404', element: <p>not found page</p> },
      { path: '/cart', element: <p>cart page</p> },
    ],
  });
  return { ...net, ...view };
}

const manualBodies = (calls: { key: string; body: unknown }[]) =>
  calls.filter((c) => c.key === 'POST /v1/manual').map((c) => c.body as ManualRequest);
const lastBody = (calls: { key: string; body: unknown }[]) => manualBodies(calls).at(-1);
const cardIds = (grid: HTMLElement) =>
  within(grid).getAllByTestId('photo-card').map((c) => Number(c.getAttribute('data-photo-id')));
const storedIds = () => (JSON.parse(localStorage.getItem('cart') ?? '[]') as { id: number }[]).map((i) => i.id);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('listing', () => {
  it('lists the first page in the order taken, with each photo’s time and bibs', async () => {
    const { calls } = setup();
    const grid = await screen.findByTestId('manual-photos');
    expect(manualBodies(calls)).toEqual([{ event_key: KEY, page: 1, page_size: 18 }]);
    expect(cardIds(grid)).toEqual([11, 12, 13]);
    const captions = within(grid).getAllByTestId('manual-caption');
    expect(captions[0]).toHaveTextContent('ถ่ายเวลา 06:01:05');
    expect(captions[0]).toHaveTextContent('บิบ 1234');
    expect(captions[1]).toHaveTextContent('บิบ 1234, F77');
    expect(captions[2]).toHaveTextContent('ไม่ทราบเวลาถ่าย');
    expect(within(captions[2]!).queryByTestId('photo-bibs')).not.toBeInTheDocument();
    expect(screen.getByTestId('manual-total')).toHaveTextContent('ทั้งหมด 3 รูป');
    // The listing is not a search: no "not me", no badge.
    expect(within(grid).queryByTestId('not-me')).not.toBeInTheDocument();
    expect(within(grid).queryByTestId('match-badge')).not.toBeInTheDocument();
    expect(screen.getByTestId('event-title')).toHaveTextContent('Bangkok 10K');
    expect(screen.getByTestId('back-to-event')).toHaveAttribute('href', `/${KEY}`);
    // One page only: no pager.
    expect(screen.queryByTestId('manual-pager')).not.toBeInTheDocument();
  });

  it('speaks English', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup();
    const grid = await screen.findByTestId('manual-photos');
    expect(within(grid).getAllByTestId('manual-caption')[1]).toHaveTextContent('Taken at 06:01:09');
    expect(within(grid).getAllByTestId('manual-caption')[1]).toHaveTextContent('Bib 1234, F77');
    expect(screen.getByTestId('manual-total')).toHaveTextContent('3 photos in all');
    const select = screen.getByTestId('photographer-filter');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Everyone',
      'Photographer 0 (30 photos)',
      'Photographer 8 (10 photos)',
    ]);
  });

  it('sends each filter, starting again from the first page, and clears them', async () => {
    const { calls } = setup(undefined, {}, 40);
    await screen.findByTestId('manual-photos');
    const select = screen.getByTestId('photographer-filter');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'ทุกคน',
      'ช่างภาพ 0 (30 รูป)',
      'ช่างภาพ 8 (10 รูป)',
    ]);
    // Nothing is prefilled.
    expect(screen.getByTestId('from-filter')).toHaveValue('');
    expect(screen.getByTestId('to-filter')).toHaveValue('');
    expect(screen.getByTestId('from-filter')).toHaveAttribute('type', 'datetime-local');

    await userEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(lastBody(calls)?.page).toBe(2));

    await userEvent.selectOptions(select, '0');
    await waitFor(() => expect(lastBody(calls)).toEqual({ event_key: KEY, page: 1, page_size: 18, photographer_id: 0 }));
    expect(select).toHaveValue('0');
    await userEvent.selectOptions(select, '8');
    await waitFor(() => expect(lastBody(calls)).toEqual({ event_key: KEY, page: 1, page_size: 18, photographer_id: 8 }));

    fireEvent.change(screen.getByTestId('from-filter'), { target: { value: '2025-01-12T06:00' } });
    await waitFor(() =>
      expect(lastBody(calls)).toEqual({ event_key: KEY, page: 1, page_size: 18, photographer_id: 8, from: '2025-01-12T06:00' }),
    );
    fireEvent.change(screen.getByTestId('to-filter'), { target: { value: '2025-01-12T07:30' } });
    await waitFor(() =>
      expect(lastBody(calls)).toEqual({
        event_key: KEY,
        page: 1,
        page_size: 18,
        photographer_id: 8,
        from: '2025-01-12T06:00',
        to: '2025-01-12T07:30',
      }),
    );

    await userEvent.click(screen.getByTestId('clear-filters'));
    await waitFor(() => expect(lastBody(calls)).toEqual({ event_key: KEY, page: 1, page_size: 18 }));
    expect(screen.getByTestId('photographer-filter')).toHaveValue('');
    expect(screen.queryByTestId('clear-filters')).not.toBeInTheDocument();
  });

  it('pages forward and back, saying which page of how many', async () => {
    const { calls } = setup(undefined, {}, 40);
    await screen.findByTestId('manual-photos');
    expect(screen.getByTestId('page-of')).toHaveTextContent('หน้า 1 จาก 3');
    expect(screen.getByTestId('page-prev')).toBeDisabled();
    await userEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(screen.getByTestId('page-of')).toHaveTextContent('หน้า 2 จาก 3'));
    expect(lastBody(calls)).toEqual({ event_key: KEY, page: 2, page_size: 18 });
    await userEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(screen.getByTestId('page-next')).toBeDisabled());
    expect(lastBody(calls)?.page).toBe(3);
    await userEvent.click(screen.getByTestId('page-prev'));
    await waitFor(() => expect(screen.getByTestId('page-of')).toHaveTextContent('หน้า 2 จาก 3'));
    expect(lastBody(calls)?.page).toBe(2);
  });

  it('says when no photo matches', async () => {
    setup(undefined, {
      'POST /v1/manual': { status: 'success', body: [], total: 0, page: 1, page_size: 18, photographers: [] },
    });
    expect(await screen.findByTestId('manual-empty')).toHaveTextContent('ไม่มีรูปตามตัวกรองนี้');
  });

  it('tells a failed listing by its code', async () => {
    setup(undefined, { 'POST /v1/manual': errorResponse(409, 'event_not_on_sale') });
    expect(await screen.findByTestId('manual-error')).toHaveTextContent('อีเวนต์นี้ไม่ได้เปิดขายในขณะนี้');
  });

  it('lists nothing while the sale is closed', async () => {
    const { calls } = setup(makeEvent({ close_sale: 'Y' }));
    expect(await screen.findByTestId('sale-closed')).toBeInTheDocument();
    expect(screen.queryByTestId('manual-photos')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bib-input')).not.toBeInTheDocument();
    expect(manualBodies(calls)).toEqual([]);
  });
});

describe('cart', () => {
  it('adds a photo to the standard cart, shows it in the cart and takes it out again', async () => {
    const { calls } = setup();
    const grid = await screen.findByTestId('manual-photos');
    const card = within(grid).getAllByTestId('photo-card')[1]!;
    await userEvent.click(within(card).getByTestId('add-to-cart'));
    expect(storedIds()).toEqual([12]);
    const stored = JSON.parse(localStorage.getItem('cart') ?? '[]') as Record<string, unknown>[];
    expect(stored[0]).toMatchObject({ id: 12, event_key: KEY, atc: 'Y' });
    expect(card).toHaveClass('in-cart');
    expect(screen.getByTestId('cart-link')).toHaveTextContent('ไปที่ตะกร้า (1 รูป)');
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /v1/logs/')).toHaveLength(1));

    await userEvent.click(within(card).getByTestId('remove-from-cart'));
    expect(storedIds()).toEqual([]);
    expect(card).not.toHaveClass('in-cart');
  });

  it('offers downloads instead on a free-download event', async () => {
    setup(makeEvent({ is_free_download: 'Y' }));
    const grid = await screen.findByTestId('manual-photos');
    expect(within(grid).getAllByTestId('download-photo')[0]).toHaveAttribute(
      'href',
      `/api/events/${KEY}/photos/11/download?openExternalBrowser=1`,
    );
    expect(within(grid).queryByTestId('add-to-cart')).not.toBeInTheDocument();
  });
});

describe('bib search on the page', () => {
  const found: PhotoBody[] = [
    { ...makePhoto(12), matched_by: 'bib' },
    { ...makePhoto(40), matched_by: 'face' },
  ];

  async function searchBib(bib: string) {
    await userEvent.type(await screen.findByTestId('bib-input'), bib);
    await userEvent.click(screen.getByTestId('bib-submit'));
  }

  it('shows the bib’s photos instead of the listing, with a way back to it', async () => {
    const { calls } = setup(undefined, {
      'POST /v1/bibsearch': { status: 'success', image_length: 2, images: found, avg_price: 0 },
    });
    await screen.findByTestId('manual-photos');
    await searchBib('1234');
    const results = await screen.findByTestId('search-results');
    expect(calls.find((c) => c.key === 'POST /v1/bibsearch')?.body).toEqual({ event_key: KEY, bib: '1234' });
    expect(screen.queryByTestId('manual-photos')).not.toBeInTheDocument();
    expect(cardIds(results)).toEqual([12, 40]);
    expect(within(results).getAllByTestId('match-badge').map((b) => b.dataset.matchedBy)).toEqual(['bib', 'face']);
    expect(screen.getByTestId('search-count')).toHaveTextContent('พบ 2 รูปของบิบ 1234');

    await userEvent.click(within(within(results).getAllByTestId('photo-card')[1]!).getByTestId('add-to-cart'));
    expect(storedIds()).toEqual([40]);

    await userEvent.click(screen.getByTestId('back-to-list'));
    expect(await screen.findByTestId('manual-photos')).toBeInTheDocument();
    expect(screen.queryByTestId('search-results')).not.toBeInTheDocument();
    // The cart keeps what was added from the bib's results.
    expect(storedIds()).toEqual([40]);
  });

  it('says when no photo carries the bib', async () => {
    setup(undefined, { 'POST /v1/bibsearch': { status: 'success', image_length: 0, images: [], avg_price: 0 } });
    await searchBib('9999');
    expect(await screen.findByTestId('search-not-found')).toHaveTextContent('ไม่พบรูปของบิบนี้');
    expect(screen.queryByTestId('manual-photos')).not.toBeInTheDocument();
    expect(screen.getByTestId('back-to-list')).toBeInTheDocument();
  });

  it('says a refused bib beside the field and keeps the listing', async () => {
    setup(undefined, { 'POST /v1/bibsearch': errorResponse(422, 'invalid_bib') });
    await screen.findByTestId('manual-photos');
    await searchBib('ABCDEFGH');
    expect(await screen.findByTestId('bib-error')).toHaveTextContent('หมายเลขบิบไม่ถูกต้อง');
    expect(screen.getByTestId('manual-photos')).toBeInTheDocument();
  });

  it('waits for the terms consent', async () => {
    const { calls } = setup();
    localStorage.removeItem(consentKey(KEY));
    await screen.findByTestId('manual-photos');
    await searchBib('1234');
    expect(calls.map((c) => c.key)).not.toContain('POST /v1/bibsearch');
  });
});
