//! An alert's page: the photos found by its link's token, each addable to the cart as on the
//! event page, the day it ends, stopping it only on a tap (also when opened to stop), and an
//! alert ended, stopped or not matching its link.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readCart, readDeal } from '@/lib/cart';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { makePhoto } from '@/test/fixtures';
import { AlertPage } from './AlertPage';

const KEY = 'bkk-10k';
const ID = '0123456789abcdef0123456789abcdef';
const TOKEN = 'tok-abc';
type Answers = Parameters<typeof fakeFetch>[0];

const ALERT = {
  alert_id: ID,
  event_key: KEY,
  event_title: 'Bangkok 10K',
  channel: 'sms',
  contact: '081****678',
  expires_at: '2026-12-01T16:59:59Z',
};

const photos = (ids: number[]) => ({
  status: 'success',
  alert: ALERT,
  image_length: ids.length,
  images: ids.map(makePhoto),
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup(answer: unknown = photos([11, 12]), { query = `?t=${TOKEN}`, extra = {} }: { query?: string; extra?: Answers } = {}) {
  const net = fakeFetch({
    [`GET /api/alerts/${ID}`]: answer,
    [`DELETE /api/alerts/${ID}`]: { status: 'success' },
    'POST /v1/logs/': { status: 'success' },
    ...extra,
  });
  const view = renderWithProviders(<AlertPage />, {
    path: '/alerts/:alertId',
    route: `/alerts/${ID}${query}`,
    routes: [
      { path: '/', element: <p>home page</p> },
      { path: '/cart', element: <p>cart page</p> },
      { path: '/:eventKey', element: <p>event page</p> },
    ],
  });
  return { ...net, ...view };
}

/** The addresses (path and query) of the calls made with `method`. */
const addresses = (fn: ReturnType<typeof fakeFetch>['fn'], method: string) =>
  fn.mock.calls
    .map(([input]) => input as Request)
    .filter((r) => r.method === method)
    .map((r) => {
      const url = new URL(r.url);
      return `${url.pathname}${url.search}`;
    });

describe('alert page', () => {
  it('shows the event, the new photos found and the day the alert ends, by the link’s token', async () => {
    const { fn } = setup();
    const grid = await screen.findByTestId('alert-photos');
    expect(screen.getByTestId('alert-page')).toHaveTextContent('Bangkok 10K');
    expect(screen.getByTestId('alert-count')).toHaveTextContent('รูปใหม่ของคุณ 2 รูป');
    expect(within(grid).getAllByTestId('photo-card').map((c) => c.getAttribute('data-photo-id'))).toEqual(['11', '12']);
    expect(within(grid).getAllByRole('img')[0]).toHaveAttribute('src', 'https://img.example/thumb/11.jpg');
    expect(screen.getByTestId('alert-event-link')).toHaveAttribute('href', `/${KEY}`);
    // 16:59 UTC is 23:59 in Bangkok: still 1 December there.
    expect(screen.getByTestId('alert-until')).toHaveTextContent('1 ธ.ค. 2569');
    expect(addresses(fn, 'GET')).toEqual([`/api/alerts/${ID}?t=${TOKEN}`]);
    expect(addresses(fn, 'DELETE')).toEqual([]);
  });

  it('reads in English', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup();
    expect(await screen.findByTestId('alert-count')).toHaveTextContent('2 new photos of you');
    expect(screen.getByTestId('alert-until')).toHaveTextContent('1 Dec 2026');
    expect(screen.getByTestId('alert-stop')).toHaveTextContent('Stop these alerts');
  });

  it('adds a photo to the cart as the event page does, and takes it out again', async () => {
    localStorage.setItem('currentLanguage', 'en');
    const { calls } = setup();
    const grid = await screen.findByTestId('alert-photos');
    const card = within(grid).getAllByTestId('photo-card')[0]!;
    await userEvent.click(within(card).getByTestId('add-to-cart'));
    expect(readCart('standard').map((i) => [i.id, i.event_key])).toEqual([[11, KEY]]);
    expect(readCart('standard')[0]!.found_ref).toBeUndefined();
    expect(readDeal('standard')).toBe('NO');
    expect(card).toHaveClass('in-cart');
    expect(await screen.findByText('Added to cart')).toBeInTheDocument();
    expect(screen.getByTestId('cart-link')).toHaveTextContent('Go to cart (1 photos)');
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/logs/')?.body).toMatchObject({ service: 'cart', image_id: 11, event_key: KEY }),
    );

    await userEvent.click(within(card).getByTestId('remove-from-cart'));
    expect(readCart('standard')).toEqual([]);
    expect(screen.queryByTestId('cart-link')).not.toBeInTheDocument();
  });

  it('says when no new photo was found yet', async () => {
    setup(photos([]));
    expect(await screen.findByTestId('alert-count')).toHaveTextContent('ยังไม่มีรูปใหม่ของคุณ');
    expect(screen.queryByTestId('alert-photos')).not.toBeInTheDocument();
  });

  it('stops the alert on a tap, with the link’s token, and says the face data is gone', async () => {
    const { fn } = setup();
    await userEvent.click(await screen.findByTestId('alert-stop'));
    expect(await screen.findByTestId('alert-stopped')).toHaveTextContent('หยุดการแจ้งเตือนแล้ว ข้อมูลใบหน้าของคุณถูกลบแล้ว');
    expect(addresses(fn, 'DELETE')).toEqual([`/api/alerts/${ID}?t=${TOKEN}`]);
    expect(screen.queryByTestId('alert-photos')).not.toBeInTheDocument();
  });

  it('opened to stop, shows the stop button first, and still waits for the tap', async () => {
    localStorage.setItem('currentLanguage', 'en');
    const { fn } = setup(undefined, { query: `?t=${TOKEN}&stop=1` });
    const stop = await screen.findByTestId('alert-stop');
    expect(stop).toHaveClass('btn-danger');
    // Before the photos.
    const grid = screen.getByTestId('alert-photos');
    expect(stop.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await new Promise((r) => setTimeout(r, 0));
    expect(addresses(fn, 'DELETE')).toEqual([]);
    await userEvent.click(stop);
    expect(await screen.findByTestId('alert-stopped')).toHaveTextContent('Alerts stopped. Your face data is deleted.');
    expect(addresses(fn, 'DELETE')).toEqual([`/api/alerts/${ID}?t=${TOKEN}`]);
  });

  it('says an alert ended, stopped or not matching its link has ended, with a way home', async () => {
    setup(errorAnswer(404, 'alert_not_found'));
    const ended = await screen.findByTestId('alert-ended');
    expect(ended).toHaveTextContent('การแจ้งเตือนนี้สิ้นสุดแล้วหรือถูกหยุดไปแล้ว');
    expect(within(ended).getByRole('link')).toHaveAttribute('href', '/');
    expect(screen.queryByTestId('alert-stop')).not.toBeInTheDocument();
  });

  it('says so in English too', async () => {
    localStorage.setItem('currentLanguage', 'en');
    setup(errorAnswer(404, 'alert_not_found'));
    expect(await screen.findByTestId('alert-ended')).toHaveTextContent('This alert has ended or was stopped');
  });

  it('says the alert has ended when stopping finds it gone', async () => {
    setup(undefined, { extra: { [`DELETE /api/alerts/${ID}`]: errorAnswer(404, 'alert_not_found') } });
    await userEvent.click(await screen.findByTestId('alert-stop'));
    expect(await screen.findByTestId('alert-ended')).toBeInTheDocument();
  });

  it('tells another failure to stop, and lets the runner tap again', async () => {
    setup(undefined, { extra: { [`DELETE /api/alerts/${ID}`]: errorAnswer(429, 'rate_limited') } });
    await userEvent.click(await screen.findByTestId('alert-stop'));
    expect(await screen.findByTestId('alert-stop-error')).toHaveTextContent('ทำรายการบ่อยเกินไป');
    expect(screen.getByTestId('alert-stop')).toBeEnabled();
  });
});
