//! Console orders list: filters travel from the address to the call's query and back,
//! rows link to their details, AM orders waiting stand out, paging, admins only.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '@/test/render';
import { adminMe, eventList, orderRow, photographerMe, renderAsOperator, requestedUrls } from '../shell/testing';
import type { AdminOrderList, AdminOrderRow, Me } from '../shell/types';
import { OrdersPage } from './OrdersPage';

const rows: AdminOrderRow[] = [
  orderRow({ created_at: '2026-11-16T09:30:00+07:00' }),
  orderRow({
    uuid: '11111111-aaaa-4bbb-8ccc-000000000002',
    mobile: '0899999999',
    email: null,
    payment_status: 'PAID',
    payment_channel: 'PP',
    payment_gateway: 'PROMPTPAY',
    image_count: 1,
    paid_amount: 63,
    receipt_ref: 'AB12',
    created_at: '2026-11-16T10:00:00+07:00',
  }),
];

const page = (overrides: Partial<AdminOrderList> = {}): AdminOrderList => ({
  orders: rows,
  total: 2,
  page: 1,
  page_size: 50,
  ...overrides,
});

function renderOrders(route = '/admin/orders', me: Me = adminMe) {
  return renderAsOperator(<OrdersPage />, { me, lang: 'en', path: '/admin/orders', route });
}

const orderQueries = (fn: { mock: { calls: unknown[][] } }) =>
  requestedUrls(fn)
    .filter((u) => u.pathname === '/api/admin/orders')
    .map((u) => Object.fromEntries(u.searchParams));

afterEach(() => vi.unstubAllGlobals());

describe('OrdersPage', () => {
  it('sends the filters of the address as query parameters and shows the rows', async () => {
    const { fn } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'GET /api/admin/orders': page(),
    });
    renderOrders('/admin/orders?event_key=bkk-run-2026&status=INITIAL&channel=AM&mobile=0812345678&from=2026-11-01&to=2026-11-30&page=2');
    const found = await screen.findAllByTestId('admin-order-row');
    expect(orderQueries(fn)[0]).toEqual({
      event_key: 'bkk-run-2026',
      status: 'INITIAL',
      channel: 'AM',
      mobile: '0812345678',
      from: '2026-11-01',
      to: '2026-11-30',
      page: '2',
    });
    expect(found).toHaveLength(2);
    const first = within(found[0]!);
    expect(first.getByRole('link', { name: rows[0]!.uuid })).toHaveAttribute('href', `/admin/orders/${rows[0]!.uuid}`);
    expect(found[0]).toHaveTextContent('16 Nov 2026, 09:30');
    expect(found[0]).toHaveTextContent('Bangkok Night Run 2026');
    expect(found[0]).toHaveTextContent('0812345678');
    expect(found[0]).toHaveTextContent('Approval (AM)');
    expect(found[0]).toHaveTextContent('Waiting for payment');
    expect(found[0]).toHaveTextContent('1,039.50');
    expect(screen.getByTestId('orders-total')).toHaveTextContent('2 orders');

    // The form shows what the address holds.
    expect(screen.getByTestId('orders-filter-status')).toHaveValue('INITIAL');
    expect(screen.getByTestId('orders-filter-mobile')).toHaveValue('0812345678');
    await waitFor(() => expect(screen.getByTestId('orders-filter-event')).toHaveValue('bkk-run-2026'));
    expect(await screen.findByRole('option', { name: 'Bangkok Night Run 2026 (bkk-run-2026)' })).toBeInTheDocument();
  });

  it('highlights AM orders waiting for approval only', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList(), 'GET /api/admin/orders': page() });
    renderOrders();
    const found = await screen.findAllByTestId('admin-order-row');
    expect(found[0]).toHaveClass('admin-order-waiting');
    expect(within(found[0]!).getByTestId('am-waiting')).toHaveTextContent('Waiting for approval');
    expect(found[1]).not.toHaveClass('admin-order-waiting');
    expect(within(found[1]!).queryByTestId('am-waiting')).not.toBeInTheDocument();
  });

  it('puts chosen filters into the address and the query, and clears them', async () => {
    const { fn } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'GET /api/admin/orders': page(),
    });
    const user = userEvent.setup();
    const { router } = renderOrders();
    await screen.findAllByTestId('admin-order-row');
    expect(orderQueries(fn)[0]).toEqual({ page: '1' });

    await user.selectOptions(screen.getByTestId('orders-filter-event'), 'cm-trail');
    await user.selectOptions(screen.getByTestId('orders-filter-channel'), 'PP');
    await user.type(screen.getByTestId('orders-filter-mobile'), '0899999999');
    await user.click(screen.getByTestId('orders-filter-apply'));

    await waitFor(() =>
      expect(orderQueries(fn).at(-1)).toEqual({ event_key: 'cm-trail', channel: 'PP', mobile: '0899999999', page: '1' }),
    );
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      event_key: 'cm-trail',
      channel: 'PP',
      mobile: '0899999999',
    });

    await user.click(screen.getByTestId('orders-filter-reset'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByTestId('orders-filter-mobile')).toHaveValue('');
  });

  it('pages through the orders, keeping the filters', async () => {
    const { fn } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'GET /api/admin/orders': page({ total: 120 }),
    });
    const user = userEvent.setup();
    const { router } = renderOrders('/admin/orders?status=PAID');
    await screen.findAllByTestId('admin-order-row');
    // The pagination library comes in its own chunk.
    await user.click(await screen.findByRole('button', { name: /page 3/i }));
    await waitFor(() => expect(orderQueries(fn).at(-1)).toEqual({ status: 'PAID', page: '3' }));
    expect(router.state.location.search).toBe('?status=PAID&page=3');
  });

  it('shows a photographer the forbidden text and asks for no orders', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/orders': page() });
    renderOrders('/admin/orders', photographerMe);
    expect(await screen.findByTestId('admin-forbidden')).toHaveTextContent('This account may not do that.');
    expect(calls.map((c) => c.key)).not.toContain('GET /api/admin/orders');
  });
});
