//! Find-order page: validation before any call, the results table, not found, reset.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch, renderWithProviders } from '@/test/render';
import { FindOrderPage } from './FindOrderPage';

const rows = [
  { create_date: '2025-05-01T10:00:00+07:00', order_id: 'uuid-one', title: 'Bangkok Run', status: 'PAID' },
  { create_date: '2025-05-02 11:00:00', order_id: 'uuid-two', title: 'Chiang Mai Trail', status: 'INITIAL' },
];

function renderFind(route = '/find-order') {
  window.localStorage.setItem('currentLanguage', 'en');
  return renderWithProviders(<FindOrderPage />, { path: '/find-order', route });
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

  it('lists the orders of a 10-digit mobile number with links to their galleries', async () => {
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
    expect(first.getByRole('link', { name: 'open gallery' })).toHaveAttribute('href', '/download/uuid-one');
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
      'POST /v1/order/find-order': () =>
        new Response(JSON.stringify({ status: 'error', code: 'rate_limited', message: 'slow down' }), {
          status: 429,
          headers: { 'content-type': 'application/json' },
        }),
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
