//! The console's frame: the sign-in guard (also when a page's call finds the session
//! gone), the operator in the header, menus by role, bookmarks and dark mode kept in
//! browser storage, the notifications bell and its sources, and signing out.

import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch, renderWithProviders } from '@/test/render';
import { AdminPagination } from './AdminPagination';
import { fetchAdminEvents } from './api';
import { useOperator } from './operator';
import {
  adminMe,
  eventList,
  events,
  orderRow,
  photographerMe,
  renderInConsole,
  requestedUrls,
  signedOut,
} from './testing';
import type { AdminOrderList } from './types';

function Child() {
  const me = useOperator();
  return <p>page for {me.email}</p>;
}

/** The frame at `route`, with a page inside it and a stand-in sign-in page. */
function renderConsole(route = '/admin', child = <Child />) {
  return renderInConsole(child, { route, lang: 'en' });
}

const orderList = (orders: AdminOrderList['orders'], total = orders.length): AdminOrderList => ({
  orders,
  total,
  page: 1,
  page_size: 50,
});

/** The orders list answered by its `status` filter, as the bell asks for AM and paid orders. */
function ordersByStatus(fn: () => { mock: { calls: unknown[][] } }, answers: Record<string, AdminOrderList>) {
  // A GET is answered in the same turn as it is recorded: the last call is this one.
  return () => answers[requestedUrls(fn()).at(-1)?.searchParams.get('status') ?? ''] ?? orderList([]);
}

afterEach(() => vi.unstubAllGlobals());

describe('AdminLayout', () => {
  it('sends a signed-out visitor to sign in, remembering the page', async () => {
    fakeFetch({ 'GET /api/admin/me': signedOut });
    const { router } = renderConsole('/admin/events?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/admin/events?page=2');
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
  });

  it('shows the operator, the page, and every menu item to an admin', async () => {
    fakeFetch({ 'GET /api/admin/me': adminMe });
    renderConsole();
    expect(await screen.findByText('page for boss@raceshot.app')).toBeInTheDocument();
    expect(screen.getByTestId('admin-user')).toHaveTextContent('boss@raceshot.app');
    expect(screen.getByTestId('admin-user')).toHaveTextContent('Admin');
    const sidebar = within(screen.getByTestId('admin-sidebar'));
    for (const name of ['Dashboard', 'Events', 'Orders', 'Audit log', 'Back to the shop']) {
      expect(sidebar.getByRole('link', { name })).toBeInTheDocument();
    }
    expect(sidebar.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
  });

  it('hides orders and the audit log from a photographer', async () => {
    fakeFetch({ 'GET /api/admin/me': photographerMe });
    renderConsole();
    const sidebar = within(await screen.findByTestId('admin-sidebar'));
    expect(screen.getByTestId('admin-user')).toHaveTextContent('Photographer');
    expect(sidebar.getByRole('link', { name: 'Events' })).toBeInTheDocument();
    expect(sidebar.queryByRole('link', { name: 'Orders' })).not.toBeInTheDocument();
    expect(sidebar.queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
  });

  it('pins and unpins bookmarks, kept in pinned_menu', async () => {
    fakeFetch({ 'GET /api/admin/me': adminMe });
    const user = userEvent.setup();
    renderConsole();
    await user.click(await screen.findByTestId('pin-audit'));
    await user.click(screen.getByTestId('pin-events'));
    expect(JSON.parse(window.localStorage.getItem('pinned_menu') ?? 'null')).toEqual(['/admin/audit', '/admin/events']);
    const bookmarks = screen.getByTestId('admin-bookmarks');
    expect(within(bookmarks).getAllByRole('link').map((a) => a.textContent)).toEqual(['Audit log', 'Events']);
    expect(screen.getByTestId('pin-events')).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByTestId('bookmark-pin-audit'));
    expect(JSON.parse(window.localStorage.getItem('pinned_menu') ?? 'null')).toEqual(['/admin/events']);
    await user.click(screen.getByTestId('pin-events'));
    expect(JSON.parse(window.localStorage.getItem('pinned_menu') ?? 'null')).toEqual([]);
    expect(screen.queryByTestId('admin-bookmarks')).not.toBeInTheDocument();
  });

  it('shows bookmarks pinned earlier, leaving out pages the operator may not open', async () => {
    window.localStorage.setItem('pinned_menu', JSON.stringify(['/admin/orders', '/admin/events']));
    fakeFetch({ 'GET /api/admin/me': photographerMe });
    renderConsole();
    const bookmarks = await screen.findByTestId('admin-bookmarks');
    expect(within(bookmarks).getAllByRole('link').map((a) => a.textContent)).toEqual(['Events']);
  });

  it('switches dark mode and remembers it in admin_theme', async () => {
    fakeFetch({ 'GET /api/admin/me': adminMe });
    const user = userEvent.setup();
    const first = renderConsole();
    const root = await screen.findByTestId('admin-root');
    expect(root).not.toHaveClass('admin-dark');
    await user.click(screen.getByTestId('dark-mode'));
    expect(root).toHaveClass('admin-dark');
    expect(window.localStorage.getItem('admin_theme')).toBe('dark');
    first.unmount();

    renderConsole();
    expect(await screen.findByTestId('admin-root')).toHaveClass('admin-dark');
    await user.click(screen.getByTestId('dark-mode'));
    expect(screen.getByTestId('admin-root')).not.toHaveClass('admin-dark');
    expect(window.localStorage.getItem('admin_theme')).toBe('light');
  });

  it('lists AM orders waiting for approval in the notifications', async () => {
    const am = orderRow({ uuid: 'u-1', event_title: 'Bangkok Run', mobile: '0812345678', image_count: 12, paid_amount: 0 });
    const { fn } = fakeFetch({
      'GET /api/admin/me': adminMe,
      'GET /api/admin/orders': ordersByStatus(() => fn, { INITIAL: orderList([am], 3) }),
    });
    const user = userEvent.setup();
    renderConsole();
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('3');
    const amRequest = requestedUrls(fn).find((u) => u.pathname === '/api/admin/orders' && u.searchParams.get('channel'));
    expect(amRequest?.searchParams.get('channel')).toBe('AM');
    expect(amRequest?.searchParams.get('status')).toBe('INITIAL');
    await user.click(screen.getByTestId('notifications'));
    const panel = screen.getByTestId('notifications-panel');
    expect(panel).toHaveTextContent('All-photos (AM) orders waiting for approval: 3');
    expect(within(panel).getByRole('link', { name: 'Bangkok Run · 0812345678 · 12 photos' })).toHaveAttribute(
      'href',
      '/admin/orders/u-1',
    );
    expect(within(panel).getByRole('link', { name: 'See all' })).toHaveAttribute(
      'href',
      '/admin/orders?channel=AM&status=INITIAL',
    );
  });

  it('lists events whose photos failed processing, leading to those photos', async () => {
    fakeFetch({ 'GET /api/admin/me': photographerMe, 'GET /api/admin/events': eventList() });
    const user = userEvent.setup();
    renderConsole();
    // Only the first event has failed photos (3 of them): one event needs attention.
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('1');
    await user.click(screen.getByTestId('notifications'));
    const group = screen.getByTestId('notices-failed-ingests');
    expect(group).toHaveTextContent('Events with photos that failed processing: 1');
    expect(within(group).getByRole('link', { name: 'Bangkok Night Run 2026 · 3 failed' })).toHaveAttribute(
      'href',
      '/admin/events/bkk-run-2026/photos?state=failed',
    );
    expect(within(group).queryByText(/Chiang Mai Trail/)).not.toBeInTheDocument();
  });

  it('shows the latest paid orders with the server’s amounts, without adding them to the badge', async () => {
    const paid = [
      orderRow({ uuid: 'p-2', payment_status: 'PAID', payment_channel: 'PP', mobile: '0899999999', paid_amount: 1260 }),
      orderRow({ uuid: 'p-1', payment_status: 'PAID', payment_channel: 'CC', mobile: '0811111111', paid_amount: 63 }),
    ];
    const { fn } = fakeFetch({
      'GET /api/admin/me': adminMe,
      'GET /api/admin/events': eventList([events[1]!]),
      'GET /api/admin/orders': ordersByStatus(() => fn, { PAID: orderList(paid, 230) }),
    });
    const user = userEvent.setup();
    renderConsole();
    const askedPaid = () => requestedUrls(fn).some((u) => u.searchParams.get('status') === 'PAID');
    await waitFor(() => expect(askedPaid()).toBe(true));
    await user.click(await screen.findByTestId('notifications'));
    const group = await screen.findByTestId('notices-paid-orders');
    expect(screen.getByTestId('notifications-panel')).toHaveTextContent('Nothing needs attention');
    expect(screen.queryByTestId('notifications-count')).not.toBeInTheDocument();
    expect(group).toHaveTextContent('Latest paid orders');
    expect(within(group).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Bangkok Night Run 2026 · 0899999999 · 1,260.00 THB',
      'Bangkok Night Run 2026 · 0811111111 · 63.00 THB',
      'See all',
    ]);
    expect(within(group).getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/admin/orders?status=PAID');
  });

  it('shows no badge when no source has anything', async () => {
    fakeFetch({ 'GET /api/admin/me': adminMe });
    const user = userEvent.setup();
    renderConsole();
    await user.click(await screen.findByTestId('notifications'));
    expect(screen.getByTestId('notifications-panel')).toHaveTextContent('Nothing needs attention');
    expect(screen.queryByTestId('notifications-count')).not.toBeInTheDocument();
  });

  it('does not ask photographers for orders', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/me': photographerMe });
    renderConsole();
    await screen.findByTestId('admin-sidebar');
    expect(calls.map((c) => c.key)).not.toContain('GET /api/admin/orders');
  });

  it('signs out and goes to the sign-in page', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/me': adminMe,
      'POST /api/admin/logout': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    const { router } = renderConsole('/admin/events');
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(router.state.location.search).toBe('');
    expect(calls.map((c) => c.key)).toContain('POST /api/admin/logout');
  });

  it('sends the visitor to sign in when a page finds the session gone', async () => {
    let session = true;
    function EventsChild() {
      const list = useQuery({ queryKey: ['admin', 'events', 'test'], queryFn: fetchAdminEvents });
      return <p>{list.isError ? 'failed' : 'loading events'}</p>;
    }
    fakeFetch({
      'GET /api/admin/me': () => (session ? adminMe : signedOut()),
      'GET /api/admin/events': () => {
        session = false;
        return errorAnswer(401, 'not_signed_in')();
      },
    });
    const { router } = renderConsole('/admin/events', <EventsChild />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/admin/events');
  });
});

describe('AdminPagination', () => {
  it('says which rows are shown and changes the page', async () => {
    window.localStorage.setItem('currentLanguage', 'en');
    const onChange = vi.fn();
    renderWithProviders(<AdminPagination page={2} total={120} pageSize={50} onChange={onChange} />);
    expect(screen.getByTestId('admin-pagination')).toHaveTextContent('51–100 of 120');
    // The pagination library comes in its own chunk.
    await userEvent.setup().click(await screen.findByRole('button', { name: /page 3/i }));
    expect(onChange).toHaveBeenCalledWith(3);
  });

  it('draws nothing for an empty list', () => {
    renderWithProviders(<AdminPagination page={1} total={0} pageSize={50} onChange={() => undefined} />);
    expect(screen.queryByTestId('admin-pagination')).not.toBeInTheDocument();
  });
});
