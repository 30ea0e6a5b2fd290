//! Find-order page: validation before any call, the results table (never a link: a mobile
//! number or receipt opens nothing), not found, reset, opening an order with a one-time code,
//! the way back when no code can be sent, and the orders this device placed.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { FindOrderPage } from './FindOrderPage';

const rows = [
  { create_date: '2025-05-01T10:00:00+07:00', order_id: '', title: 'Bangkok Run', status: 'PAID', lookup: 'lk-a', contact: '' },
  { create_date: '2025-05-02 11:00:00', order_id: '', title: 'Chiang Mai Trail', status: 'INITIAL', lookup: 'lk-b', contact: '' },
];

function renderFind(route = '/find-order') {
  return renderWithProviders(<FindOrderPage />, {
    lang: 'en',
    path: '/find-order',
    route,
    routes: [{ path: '/download/:q', element: <p data-testid="order-page">order page</p> }],
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('FindOrderPage', () => {
  it('refuses a 9-digit mobile number without calling the server', async () => {
    const { calls } = fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: rows } });
    const user = userEvent.setup();
    renderFind();
    expect(screen.getByTestId('filter-mobile')).toBeChecked();
    await user.type(screen.getByTestId('find-input'), '081234567');
    await user.click(screen.getByTestId('find-submit'));
    expect(screen.getByTestId('find-error')).toHaveTextContent('The mobile number must be 10 to 15 digits.');
    expect(calls).toHaveLength(0);
  });

  it('asks for a text when the box is empty', async () => {
    const { calls } = fakeFetch({});
    const user = userEvent.setup();
    renderFind();
    await user.click(screen.getByTestId('find-submit'));
    expect(screen.getByTestId('find-error')).toHaveTextContent('Please enter what to search for.');
    expect(calls).toHaveLength(0);
  });

  it('lists the orders of a 10-digit mobile number, none of them opened by the number alone', async () => {
    const { calls } = fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: rows } });
    const user = userEvent.setup();
    renderFind();
    await user.type(screen.getByTestId('find-input'), '0812345678');
    await user.click(screen.getByTestId('find-submit'));
    const found = await screen.findAllByTestId('find-row');
    expect(calls[0]).toEqual({
      key: 'POST /v1/order/find-order',
      body: { filter_type: 'mobile', txt_search: '0812345678' },
    });
    expect(found).toHaveLength(2);
    const first = within(found[0]!);
    expect(first.queryByRole('link')).not.toBeInTheDocument();
    // No channel can send a code: the row says how to get the link again.
    expect(first.getByTestId('find-code-none')).toHaveTextContent('Orders from this device');
    expect(found[0]).toHaveTextContent('1 May 2025, 10:00');
    expect(found[0]).toHaveTextContent('Bangkok Run');
    expect(found[0]).toHaveTextContent('Paid');
    expect(found[1]).toHaveTextContent('Waiting for payment');
    expect(screen.queryByTestId('find-error')).not.toBeInTheDocument();
  });

  it('refuses a 3-character receipt and sends a 4-character one as payment_ref', async () => {
    const { calls } = fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: rows.slice(0, 1) } });
    const user = userEvent.setup();
    renderFind();
    await user.click(screen.getByTestId('filter-receipt'));
    await user.type(screen.getByTestId('find-input'), 'A1B');
    await user.click(screen.getByTestId('find-submit'));
    expect(screen.getByTestId('find-error')).toHaveTextContent('exactly 4');
    expect(calls).toHaveLength(0);
    await user.type(screen.getByTestId('find-input'), '2');
    await user.click(screen.getByTestId('find-submit'));
    expect(await screen.findAllByTestId('find-row')).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ filter_type: 'payment_ref', txt_search: 'A1B2' });
  });

  it('says order not found when nothing matches', async () => {
    fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: [] } });
    const user = userEvent.setup();
    renderFind();
    await user.type(screen.getByTestId('find-input'), '0899999999');
    await user.click(screen.getByTestId('find-submit'));
    expect(await screen.findByTestId('find-not-found')).toHaveTextContent('Order not found');
    expect(screen.queryByTestId('find-results')).not.toBeInTheDocument();
  });

  it('shows the error text of the code the server answers', async () => {
    fakeFetch({
      'POST /v1/order/find-order': errorAnswer(429, 'rate_limited', { body: { message: 'slow down' } }),
    });
    const user = userEvent.setup();
    renderFind();
    await user.type(screen.getByTestId('find-input'), '0812345678');
    await user.click(screen.getByTestId('find-submit'));
    expect(await screen.findByTestId('find-api-error')).toHaveTextContent('Too many requests');
  });

  it('resets to the mobile filter with an empty box and no results', async () => {
    fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: rows } });
    const user = userEvent.setup();
    renderFind();
    await user.click(screen.getByTestId('filter-receipt'));
    await user.click(screen.getByTestId('filter-mobile'));
    await user.type(screen.getByTestId('find-input'), '0812345678');
    await user.click(screen.getByTestId('find-submit'));
    await screen.findByTestId('find-results');
    await user.click(screen.getByTestId('filter-receipt'));
    await user.click(screen.getByTestId('find-reset'));
    expect(screen.queryByTestId('find-results')).not.toBeInTheDocument();
    expect(screen.getByTestId('filter-mobile')).toBeChecked();
    expect(screen.getByTestId('find-input')).toHaveValue('');
  });

  it('prefills and searches a mobile number given in the address', async () => {
    const { calls } = fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: rows } });
    renderFind('/find-order?mobile=0812345678');
    expect(screen.getByTestId('find-input')).toHaveValue('0812345678');
    await waitFor(() => expect(screen.getAllByTestId('find-row')).toHaveLength(2));
    expect(calls).toEqual([
      { key: 'POST /v1/order/find-order', body: { filter_type: 'mobile', txt_search: '0812345678' } },
    ]);
  });
});

describe('FindOrderPage and the orders of this device', () => {
  afterEach(() => window.localStorage.clear());

  it('lists the orders this device placed, each with its link, and nothing else', async () => {
    window.localStorage.setItem(
      'my_orders',
      JSON.stringify([
        { uuid: '6f1c2b1e-1111-4222-8333-944455556666', event_key: 'bkk', title: 'Bangkok Run', created: '2025-05-01T03:00:00Z' },
        { uuid: 'not-an-order', event_key: 'x', title: 'forged', created: '2025-05-01T03:00:00Z' },
      ]),
    );
    renderFind();
    // One bad entry makes the kept list unreadable: nothing is listed from it.
    expect(screen.queryByTestId('device-orders')).not.toBeInTheDocument();
    window.localStorage.setItem(
      'my_orders',
      JSON.stringify([
        { uuid: '6f1c2b1e-1111-4222-8333-944455556666', event_key: 'bkk', title: 'Bangkok Run', created: '2025-05-01T03:00:00Z' },
      ]),
    );
    window.dispatchEvent(new StorageEvent('storage', { key: 'my_orders' }));
    const mine = await screen.findAllByTestId('device-order');
    expect(mine).toHaveLength(1);
    expect(within(mine[0]!).getByRole('link', { name: 'open gallery' })).toHaveAttribute(
      'href',
      '/download/6f1c2b1e-1111-4222-8333-944455556666',
    );
    expect(mine[0]).toHaveTextContent('Bangkok Run');
  });
});

describe('FindOrderPage with a one-time code', () => {
  const coded = [
    { ...rows[0]!, order_id: '', lookup: 'lk-one', contact: '08******78' },
    { ...rows[1]!, order_id: '', lookup: 'lk-two', contact: '' },
  ];

  async function search(answers: Parameters<typeof fakeFetch>[0]) {
    const net = fakeFetch({
      'POST /v1/order/find-order': { status: 'success', body: coded },
      'POST /v1/order/find-order/send-code': { status: 'success', contact: '08******78', expires_in_secs: 600 },
      ...answers,
    });
    const user = userEvent.setup();
    const view = renderFind();
    await user.type(screen.getByTestId('find-input'), '0812345678');
    await user.click(screen.getByTestId('find-submit'));
    const found = await screen.findAllByTestId('find-row');
    return { ...net, ...view, user, first: within(found[0]!), second: within(found[1]!) };
  }

  it('shows the masked contact and a send button instead of a link', async () => {
    const { first, second } = await search({});
    expect(screen.getByTestId('find-code-why')).toHaveTextContent('6-digit code');
    expect(screen.queryByTestId('find-open')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'open gallery' })).not.toBeInTheDocument();
    expect(first.getByTestId('find-code-contact')).toHaveTextContent('The code goes to 08******78.');
    expect(first.getByTestId('find-send-code')).toHaveTextContent('Send code');
    // No address to send to: the order opens only from its link or through the shop.
    expect(second.queryByTestId('find-send-code')).not.toBeInTheDocument();
    expect(second.getByTestId('find-code-none')).toHaveTextContent('staff will send you the link again');
    expect(second.getByTestId('find-code-none')).toHaveTextContent('@raceshot');
  });

  it('sends a code, refuses a wrong one, then opens the order with the right one', async () => {
    let tries = 0;
    const { calls, first, user, router } = await search({
      'POST /v1/order/find-order/open': () =>
        ++tries === 1 ? errorResponse(422, 'access_code_invalid') : { status: 'success', order_id: 'uuid-one' },
    });
    await user.click(first.getByTestId('find-send-code'));
    expect(await first.findByTestId('find-code-sent')).toHaveTextContent(
      'A 6-digit code was sent to 08******78; it works for 10 minutes.',
    );
    expect(calls.find((c) => c.key === 'POST /v1/order/find-order/send-code')?.body).toEqual({ lookup: 'lk-one' });

    const input = first.getByLabelText('6-digit code');
    await user.type(input, '111111');
    await user.click(first.getByTestId('find-open-code'));
    expect(await first.findByTestId('find-code-field-error')).toHaveTextContent('The code is wrong');
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.clear(input);
    await user.type(input, '123456');
    await user.click(first.getByTestId('find-open-code'));
    expect(await screen.findByTestId('order-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/download/uuid-one');
    const opens = calls.filter((c) => c.key === 'POST /v1/order/find-order/open').map((c) => c.body);
    expect(opens).toEqual([
      { lookup: 'lk-one', code: '111111' },
      { lookup: 'lk-one', code: '123456' },
    ]);
  });

  it('checks the code has 6 digits before asking the server', async () => {
    const { calls, first, user } = await search({});
    await user.click(first.getByTestId('find-send-code'));
    const input = await first.findByLabelText('6-digit code');
    await user.type(input, '12a3');
    expect(input).toHaveValue('123');
    await user.click(first.getByTestId('find-open-code'));
    expect(first.getByTestId('find-code-field-error')).toHaveTextContent('Please enter the 6-digit code.');
    expect(calls.filter((c) => c.key === 'POST /v1/order/find-order/open')).toHaveLength(0);
  });

  it('asks for a new code when the code expired', async () => {
    const { calls, first, user } = await search({
      'POST /v1/order/find-order/open': errorAnswer(422, 'access_code_expired'),
    });
    await user.click(first.getByTestId('find-send-code'));
    await user.type(await first.findByLabelText('6-digit code'), '123456');
    await user.click(first.getByTestId('find-open-code'));
    expect(await first.findByTestId('find-code-error')).toHaveTextContent('Please ask for a new code.');
    expect(first.queryByLabelText('6-digit code')).not.toBeInTheDocument();

    await user.click(first.getByRole('button', { name: 'Send a new code' }));
    expect(await first.findByLabelText('6-digit code')).toHaveValue('');
    expect(first.queryByTestId('find-code-error')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'POST /v1/order/find-order/send-code')).toHaveLength(2);
  });

  it('explains an order the server cannot send a code for', async () => {
    const { first, user } = await search({
      'POST /v1/order/find-order/send-code': errorAnswer(422, 'access_code_undeliverable'),
    });
    await user.click(first.getByTestId('find-send-code'));
    expect(await first.findByTestId('find-code-none')).toHaveTextContent('contact the shop on LINE @raceshot');
    expect(first.queryByTestId('find-send-code')).not.toBeInTheDocument();
  });

  it('shows the text of a refused request', async () => {
    const { first, user } = await search({ 'POST /v1/order/find-order/send-code': errorAnswer(429, 'rate_limited') });
    await user.click(first.getByTestId('find-send-code'));
    expect(await first.findByTestId('find-code-error')).toHaveTextContent('Too many requests');
    expect(first.getByTestId('find-send-code')).toBeEnabled();
  });

  it('speaks Thai by default', async () => {
    fakeFetch({ 'POST /v1/order/find-order': { status: 'success', body: coded } });
    const user = userEvent.setup();
    renderWithProviders(<FindOrderPage />, { path: '/find-order', route: '/find-order' });
    await user.type(screen.getByTestId('find-input'), '0812345678');
    await user.click(screen.getByTestId('find-submit'));
    const [first] = await screen.findAllByTestId('find-row');
    expect(within(first!).getByTestId('find-code-contact')).toHaveTextContent('รหัสจะถูกส่งไปที่ 08******78');
    expect(within(first!).getByRole('button', { name: 'ส่งรหัส' })).toBeInTheDocument();
  });
});
