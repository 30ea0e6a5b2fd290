//! Console order detail: every field and the payment trail, approving an AM order after the
//! confirmation, confirming a PromptPay slip, resending the e-mail, outcomes and errors.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch } from '@/test/render';
import { noContent, orderRow, photographerMe, renderAsOperator } from '../shell/testing';
import type { Me } from '../shell/types';
import type { AdminOrder } from './api';
import { OrderDetailPage } from './OrderDetailPage';

const UUID = '11111111-aaaa-4bbb-8ccc-000000000001';

const amOrder: AdminOrder = {
  ...orderRow({
    uuid: UUID,
    event_key: 'bkk-10k',
    event_title: 'Bangkok 10K 2026',
    created_at: '2026-11-16T09:30:00+07:00',
  }),
  am_order_ref: '11111111-aaaa-4bbb-8ccc-000000000000',
  paid_at: null,
  certificate_bib: null,
  order_page_url: `http://shop.test/download/${UUID}`,
  trail: [],
};

const promptPayOrder: AdminOrder = {
  ...amOrder,
  payment_channel: 'PP',
  payment_gateway: 'PROMPTPAY',
  am_order_ref: null,
  image_count: 2,
  paid_amount: 126,
  trail: [
    {
      gateway: 'PROMPTPAY',
      kind: 'qr_created',
      external_ref: 'qr-1',
      amount: 12600,
      status: 'INITIAL',
      at: '2026-11-16T09:30:05+07:00',
    },
    { gateway: 'PROMPTPAY', kind: 'note', external_ref: null, amount: null, status: 'INFO', at: '2026-11-16T09:31:00+07:00' },
  ],
};

const paidOrder: AdminOrder = {
  ...promptPayOrder,
  payment_status: 'PAID',
  receipt_ref: 'AB12',
  paid_at: '2026-11-16T09:40:00+07:00',
  certificate_bib: '42',
};

/** The order at its address, and `answers` for the calls the test makes. */
function serveOrder(order: AdminOrder, answers: Parameters<typeof fakeFetch>[0] = {}) {
  return fakeFetch({ [`GET /api/admin/orders/${UUID}`]: order, ...answers });
}

function renderDetail(me?: Me) {
  return renderAsOperator(<OrderDetailPage />, { me, lang: 'en', path: '/admin/orders/:uuid', route: `/admin/orders/${UUID}` });
}

afterEach(() => vi.unstubAllGlobals());

describe('OrderDetailPage', () => {
  it('shows every field, the link to the buyer’s page and the payment trail in baht', async () => {
    serveOrder(paidOrder);
    renderDetail();
    expect(await screen.findByTestId('order-uuid')).toHaveTextContent(UUID);
    expect(screen.getByTestId('order-event')).toHaveTextContent('Bangkok 10K 2026');
    expect(screen.getByTestId('order-event')).toHaveTextContent('bkk-10k');
    expect(screen.getByTestId('order-mobile')).toHaveTextContent('0812345678');
    expect(screen.getByTestId('order-email')).toHaveTextContent('runner@example.com');
    expect(screen.getByTestId('order-status')).toHaveTextContent('Paid');
    expect(screen.getByTestId('order-channel')).toHaveTextContent('PromptPay (PP)');
    expect(screen.getByTestId('order-gateway')).toHaveTextContent('PROMPTPAY');
    expect(screen.getByTestId('order-image-count')).toHaveTextContent('2 photos');
    expect(screen.getByTestId('order-paid-amount')).toHaveTextContent('126.00');
    expect(screen.getByTestId('order-receipt-ref')).toHaveTextContent('AB12');
    expect(screen.getByTestId('order-certificate')).toHaveTextContent('of bib 42');
    expect(screen.getByTestId('order-created-at')).toHaveTextContent('16 Nov 2026, 09:30');
    expect(screen.getByTestId('order-paid-at')).toHaveTextContent('16 Nov 2026, 09:40');
    expect(screen.getByTestId('visitor-order-link')).toHaveAttribute('href', `/download/${UUID}`);

    const trail = screen.getAllByTestId('trail-row');
    expect(trail).toHaveLength(2);
    expect(trail[0]).toHaveTextContent('qr_created');
    expect(trail[0]).toHaveTextContent('qr-1');
    expect(trail[0]).toHaveTextContent('126.00');
    expect(trail[0]).toHaveTextContent('16 Nov 2026, 09:30');
    expect(trail[1]).toHaveTextContent('—');

    // Paid with an e-mail: only resending is offered.
    expect(screen.getByTestId('resend-email')).toBeInTheDocument();
    expect(screen.queryByTestId('approve-order')).not.toBeInTheDocument();
    expect(screen.queryByTestId('confirm-slip')).not.toBeInTheDocument();
  });

  it('approves an AM order after quoting the buyer’s request in the confirmation', async () => {
    const { calls } = serveOrder(amOrder, { [`POST /api/admin/orders/${UUID}/approve`]: { outcome: 'paid' } });
    const user = userEvent.setup();
    renderDetail();
    expect(await screen.findByTestId('am-request')).toHaveTextContent('The buyer asked for approval of this all-photos order');
    expect(screen.getByTestId('order-am-order-ref')).toHaveTextContent(amOrder.am_order_ref!);
    expect(screen.queryByTestId('confirm-slip')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('approve-order'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The buyer asked for approval of this all-photos order');
    expect(dialog).toHaveTextContent('42 photos');
    expect(dialog).toHaveTextContent('1,039.50');
    expect(calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve order' }));

    await waitFor(() => expect(calls).toContainEqual({ key: `POST /api/admin/orders/${UUID}/approve`, body: undefined }));
    expect(await screen.findByText('The order is paid; its photos are being delivered.')).toBeInTheDocument();
    // The order is asked again to show its new state.
    await waitFor(() => expect(calls.filter((c) => c.key === `GET /api/admin/orders/${UUID}`)).toHaveLength(2));
  });

  it('does not approve when the operator cancels', async () => {
    const { calls } = serveOrder(amOrder);
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByTestId('approve-order'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);
  });

  it('tells an already paid outcome and errors by their code', async () => {
    let answer: () => unknown = () => ({ outcome: 'already_paid' });
    serveOrder(amOrder, { [`POST /api/admin/orders/${UUID}/approve`]: () => answer() });
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByTestId('approve-order'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve order' }));
    expect(await screen.findByText('This order was already paid; nothing changed.')).toBeInTheDocument();

    answer = errorAnswer(409, 'order_not_payable');
    await waitFor(() => expect(screen.getByTestId('approve-order')).toBeEnabled());
    await user.click(screen.getByTestId('approve-order'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve order' }));
    expect(await screen.findByText('This order is not waiting for payment.')).toBeInTheDocument();
  });

  it('confirms a PromptPay order against the slip reference', async () => {
    const { calls } = serveOrder(promptPayOrder, { [`POST /api/admin/orders/${UUID}/confirm`]: { outcome: 'paid' } });
    const user = userEvent.setup();
    renderDetail();
    await screen.findByTestId('slip-ref');
    expect(screen.queryByTestId('approve-order')).not.toBeInTheDocument();
    expect(screen.queryByTestId('resend-email')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('confirm-slip'));
    expect(screen.getByTestId('error-slip_ref')).toHaveTextContent('Please enter the slip reference.');
    expect(calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);

    await user.type(screen.getByTestId('slip-ref'), ' 202611160930AB12 ');
    await user.click(screen.getByTestId('confirm-slip'));
    await waitFor(() =>
      expect(calls).toContainEqual({ key: `POST /api/admin/orders/${UUID}/confirm`, body: { slip_ref: '202611160930AB12' } }),
    );
    expect(await screen.findByText('The order is paid; its photos are being delivered.')).toBeInTheDocument();
  });

  it('shows a refused slip reference beside its input', async () => {
    serveOrder(promptPayOrder, {
      [`POST /api/admin/orders/${UUID}/confirm`]: errorAnswer(422, 'invalid_field', {
        body: { message: 'too short', field: 'slip_ref' },
      }),
    });
    const user = userEvent.setup();
    renderDetail();
    await user.type(await screen.findByTestId('slip-ref'), 'AB');
    await user.click(screen.getByTestId('confirm-slip'));
    expect(await screen.findByTestId('error-slip_ref')).toHaveTextContent('Some fields are not valid.');
    expect(screen.getByTestId('slip-ref')).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends the e-mail again for a paid order', async () => {
    const { calls } = serveOrder(paidOrder, { [`POST /api/admin/orders/${UUID}/resend-email`]: noContent });
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByTestId('resend-email'));
    await waitFor(() => expect(calls.map((c) => c.key)).toContain(`POST /api/admin/orders/${UUID}/resend-email`));
    expect(await screen.findByText('E-mail sent again to runner@example.com')).toBeInTheDocument();
  });

  it('offers no resend for a paid order without an e-mail', async () => {
    serveOrder({ ...paidOrder, email: null });
    renderDetail();
    expect(await screen.findByTestId('order-actions')).toHaveTextContent('Nothing to do for this order.');
    expect(screen.queryByTestId('resend-email')).not.toBeInTheDocument();
  });

  it('shows a photographer the forbidden text', async () => {
    const { calls } = serveOrder(paidOrder);
    renderDetail(photographerMe);
    expect(await screen.findByTestId('admin-forbidden')).toHaveTextContent('This account may not do that.');
    expect(calls.map((c) => c.key)).not.toContain(`GET /api/admin/orders/${UUID}`);
  });
});
