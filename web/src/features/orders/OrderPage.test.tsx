//! Order page: what each order state shows and which calls its buttons make.

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';
import type { InquiryResponse } from '@/api/types';
import { fakeFetch, renderWithProviders } from '@/test/render';
import { OrderPage } from './OrderPage';

vi.mock('qrcode', () => ({ default: { toCanvas: vi.fn(() => Promise.resolve()) } }));

const UUID = '6f1c2b1e-1111-4222-8333-944455556666';

function inquiry(over: Partial<InquiryResponse> = {}): InquiryResponse {
  return {
    status: 'success',
    payment_status: 'INITIAL',
    mobile: '0812345678',
    email: 'runner@example.com',
    amount: 210,
    is_original_image_created: 'N',
    is_logo_image_created: 'N',
    is_send_sms: 'N',
    is_send_email: 'N',
    event_key: 'bangkok-run',
    event_title: 'Bangkok Run 2025',
    payment_gateway: 'SANDBOX',
    payment_channel: 'PP',
    qrcode_url: 'http://localhost/sandbox/pay/abc',
    am_order_ref: '',
    receipt_ref: '',
    images_order: JSON.stringify([
      { thumbnail_file_name: 'a.jpg', original_file_name: 'IMG_1.jpg' },
      { thumbnail_file_name: 'b.jpg', original_file_name: 'IMG_2.jpg' },
    ]),
    images_paid: '[]',
    image_length: 2,
    photos_amount: 200,
    payment_fee: 10,
    create_date: '2025-05-01T10:00:00+07:00',
    expire_date: '2025-05-01T10:15:00+07:00',
    storage_expired: 'N',
    sandbox: true,
    ...over,
  };
}

const paidImages = JSON.stringify([
  {
    id: 11,
    image: '/api/orders/x/photos/11/original?exp=1&sig=aa',
    image_logo: '/api/orders/x/photos/11/logo?exp=1&sig=bb',
    image_thumbnail: '/media/bangkok-run/thumbnail/a.jpg',
    original_file_name: 'IMG_1.jpg',
    photographer_id: 7,
  },
  {
    id: 12,
    image: '/api/orders/x/photos/12/original?exp=1&sig=cc',
    image_logo: '/api/orders/x/photos/12/logo?exp=1&sig=dd',
    image_thumbnail: '/media/bangkok-run/thumbnail/b.jpg',
    original_file_name: 'IMG_2.jpg',
    photographer_id: 7,
  },
]);

const paid = (over: Partial<InquiryResponse> = {}) =>
  inquiry({
    payment_status: 'PAID',
    payment_gateway: 'GBP',
    sandbox: false,
    images_order: '[]',
    images_paid: paidImages,
    is_original_image_created: 'Y',
    is_logo_image_created: 'Y',
    receipt_ref: 'A1B2',
    ...over,
  });

function renderOrder() {
  return renderWithProviders(<OrderPage />, { path: '/download/:q', route: `/download/${UUID}` });
}

/** Holds every answer of the fake server until the returned function is called. */
function holdAnswers(): () => void {
  const inner = globalThis.fetch;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    await gate;
    return inner(input, init);
  });
  return () => open();
}

function english() {
  window.localStorage.setItem('currentLanguage', 'en');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('OrderPage', () => {
  it('shows the order id and Loading... until the inquiry answers', async () => {
    english();
    const { calls } = fakeFetch({ 'POST /v3/order/inquiry': inquiry() });
    const answer = holdAnswers();
    renderOrder();
    expect(screen.getByTestId('order-id')).toHaveTextContent(UUID);
    expect(screen.getByTestId('order-status')).toHaveTextContent('Loading...');
    expect(screen.getByTestId('order-status')).not.toHaveAttribute('data-status');
    answer();
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveAttribute('data-status', 'INITIAL'));
    expect(calls[0]).toEqual({ key: 'POST /v3/order/inquiry', body: { order_uuid: UUID } });
  });

  it('draws the sandbox PromptPay QR locally and links the sandbox payment page', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry() });
    renderOrder();
    const canvas = await screen.findByTestId('payment-qr');
    expect(canvas.tagName).toBe('CANVAS');
    await waitFor(() =>
      expect(QRCode.toCanvas).toHaveBeenCalledWith(
        canvas,
        'http://localhost/sandbox/pay/abc',
        expect.objectContaining({ width: 250, errorCorrectionLevel: 'Q' }),
      ),
    );
    expect(screen.getByTestId('sandbox-pay-link')).toHaveAttribute('href', 'http://localhost/sandbox/pay/abc');
    expect(screen.getByTestId('sandbox-pay-link')).not.toHaveAttribute('target');
    expect(screen.getByText('Test mode: no real money moves.')).toBeVisible();
    expect(screen.getByTestId('order-amount')).toHaveTextContent('210.00 THB');
    expect(screen.getByText('Please pay before 1 May 2025, 10:15')).toBeInTheDocument();
    expect(screen.getByTestId('order-status')).toHaveTextContent('Waiting for payment');
    // The samples of an unpaid order come from the event's thumbnails.
    const samples = within(screen.getByTestId('sample-photos')).getAllByRole('img');
    expect(samples.map((i) => i.getAttribute('src'))).toEqual([
      '/media/bangkok-run/thumbnail/a.jpg',
      '/media/bangkok-run/thumbnail/b.jpg',
    ]);
  });

  it('shows the GBP QR as an image and refetches on Refresh', async () => {
    const { calls } = fakeFetch({
      'POST /v3/order/inquiry': inquiry({ payment_gateway: 'GBP', sandbox: false, qrcode_url: 'https://gbp.example/qr.png' }),
    });
    renderOrder();
    const img = await screen.findByTestId('payment-qr-image');
    expect(img).toHaveAttribute('src', 'https://gbp.example/qr.png');
    expect(screen.queryByTestId('payment-qr')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sandbox-pay-link')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('refresh-status'));
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /v3/order/inquiry')).toHaveLength(2));
  });

  it('shows the stepper, gallery and both download-all buttons for a paid order', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    const user = userEvent.setup();
    renderOrder();
    const stepper = await screen.findByTestId('order-stepper');
    expect(within(stepper).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '✓Paid',
      '✓Original photos ready',
      '✓Photos with logo ready',
      '✓Completed',
    ]);
    expect(screen.getByTestId('order-status')).toHaveAttribute('data-status', 'PAID');
    expect(screen.getAllByTestId('paid-photo')).toHaveLength(2);
    expect(screen.getByTestId('download-all')).toBeEnabled();
    expect(screen.getByTestId('download-all-logo')).toBeEnabled();
    expect(screen.getByTestId('receipt-ref')).toHaveTextContent('A1B2');

    // Per-photo downloads keep the signature and add the external-browser flag.
    const links = screen.getAllByTestId('download-photo');
    expect(links[0]).toHaveAttribute('href', '/api/orders/x/photos/11/original?exp=1&sig=aa&openExternalBrowser=1');
    await user.click(screen.getByTestId('variant-logo'));
    expect(screen.getAllByTestId('download-photo')[1]).toHaveAttribute(
      'href',
      '/api/orders/x/photos/12/logo?exp=1&sig=dd&openExternalBrowser=1',
    );
    expect(screen.getAllByTestId('view-photo-logo')).toHaveLength(2);

    // Download all: confirm with the count, then the server's ZIP through a temporary link.
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    await user.click(screen.getByTestId('download-all'));
    expect(await screen.findByText('Download 2 original photos as one ZIP file?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(clicked).toEqual([`/api/orders/${UUID}/download.zip?variant=original`]);
    expect(await screen.findByTestId('download-started')).toBeInTheDocument();

    await user.click(screen.getByTestId('download-all-logo'));
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect(clicked[1]).toBe(`/api/orders/${UUID}/download.zip?variant=logo`);
  });

  it('opens the lightbox on the chosen photo', async () => {
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    const user = userEvent.setup();
    renderOrder();
    const views = await screen.findAllByTestId('view-photo');
    await user.click(views[1]!);
    await waitFor(() =>
      expect(
        Array.from(document.querySelectorAll('img')).some(
          (i) => i.getAttribute('src') === '/api/orders/x/photos/12/original?exp=1&sig=cc',
        ),
      ).toBe(true),
    );
  });

  it('hides the logo download and the logo toggle for a FREE order', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': paid({
        payment_channel: 'FREE',
        amount: 0,
        is_logo_image_created: 'N',
        images_paid: JSON.stringify(JSON.parse(paidImages).map((i: object) => ({ ...i, image_logo: '' }))),
      }),
    });
    renderOrder();
    const stepper = await screen.findByTestId('order-stepper');
    expect(within(stepper).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '✓Order created',
      '✓Original photos ready',
      '✓Order completed',
    ]);
    expect(screen.getByTestId('order-status')).toHaveTextContent('Order completed');
    expect(screen.getByTestId('download-all')).toBeEnabled();
    expect(screen.queryByTestId('download-all-logo')).not.toBeInTheDocument();
    expect(screen.queryByTestId('variant-logo')).not.toBeInTheDocument();
    expect(screen.queryByTestId('view-photo-logo')).not.toBeInTheDocument();
  });

  it('keeps download-all disabled until the originals are made', async () => {
    fakeFetch({ 'POST /v3/order/inquiry': paid({ is_original_image_created: 'N', is_logo_image_created: 'N' }) });
    renderOrder();
    expect(await screen.findByTestId('download-all')).toBeDisabled();
    expect(screen.getByTestId('download-all-logo')).toBeDisabled();
    expect(screen.queryByTestId('variant-logo')).not.toBeInTheDocument();
  });

  it('warns in-app browsers instead of downloading the ZIP, copying the page link', async () => {
    english();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) AppleWebKit Line/13.1.0');
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    renderOrder();
    await user.click(await screen.findByTestId('download-all'));
    expect(await screen.findByText('Please open in Chrome or Safari')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    expect(click).not.toHaveBeenCalled();
  });

  it('shows the wholesale approval request with its links, and copies it', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': inquiry({
        payment_channel: 'AM',
        payment_gateway: 'GBP',
        sandbox: false,
        am_order_ref: 'prev-order-uuid',
      }),
    });
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderOrder();
    const box = await screen.findByTestId('am-request-text');
    const origin = window.location.origin;
    const text = (box as HTMLTextAreaElement).value;
    expect(text).toContain(`${origin}/download/${UUID}`);
    expect(text).toContain(`${origin}/download/prev-order-uuid`);
    expect(text).toContain(`${origin}/find-order?mobile=0812345678`);
    expect(text).toContain('0812345678');
    expect(box).toHaveAttribute('readonly');
    expect(screen.getByTestId('order-status')).toHaveTextContent('Waiting for approve');
    expect(screen.getByTestId('order-amount')).toHaveClass('strike');
    await user.click(screen.getByTestId('copy-request'));
    expect(writeText).toHaveBeenCalledWith(text);
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
  });

  it('tells the visitor to copy manually when the clipboard refuses', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry({ payment_channel: 'AM', sandbox: false }) });
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    renderOrder();
    await user.click(await screen.findByTestId('copy-request'));
    expect(await screen.findByText('Copy failed / Please copy manually.')).toBeInTheDocument();
  });

  it('says the storage time expired when the originals are gone', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid({ storage_expired: 'Y', images_paid: '[]' }) });
    renderOrder();
    expect(await screen.findByTestId('storage-expired')).toHaveTextContent('The storage time of these photos has expired.');
    expect(screen.queryByTestId('download-all')).not.toBeInTheDocument();
  });

  it('says End of Sale for an unpaid order with no photos left', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry({ images_order: '[]' }) });
    renderOrder();
    expect(await screen.findByTestId('storage-expired')).toHaveTextContent('End of Sale');
    expect(screen.queryByTestId('payment-qr')).not.toBeInTheDocument();
  });

  it('reads malformed photo lists as empty instead of failing', async () => {
    fakeFetch({ 'POST /v3/order/inquiry': paid({ images_paid: 'not json', is_original_image_created: 'N' }) });
    renderOrder();
    expect(await screen.findByTestId('order-stepper')).toBeInTheDocument();
    expect(screen.queryAllByTestId('paid-photo')).toHaveLength(0);
  });

  it('explains an expired order and links to search again', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry({ payment_status: 'EXPIRED' }) });
    renderOrder();
    expect(await screen.findByText(/payment window of this order has closed/)).toBeInTheDocument();
    expect(screen.getByTestId('search-again')).toHaveAttribute('href', '/bangkok-run');
  });

  it('pays a sandbox card order in satang and follows the returned address', async () => {
    english();
    const assign = vi.fn();
    vi.stubGlobal('location', { href: 'http://localhost/', origin: 'http://localhost', assign });
    const { calls } = fakeFetch({
      'POST /v3/order/inquiry': inquiry({ payment_channel: 'CC', amount: 105.5, qrcode_url: '' }),
      'POST /v3/order/opn-cc-payment': { status: 'success', data: { authorize_uri: 'http://localhost/sandbox/3ds' } },
    });
    const user = userEvent.setup();
    renderOrder();
    const payButton = await screen.findByTestId('pay-by-card');
    const answer = holdAnswers();
    await user.click(payButton);
    expect(await screen.findByTestId('card-connecting')).toHaveTextContent('do not close the window');
    expect(assign).not.toHaveBeenCalled();
    answer();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/sandbox/3ds'));
    const pay = calls.find((c) => c.key === 'POST /v3/order/opn-cc-payment')!;
    expect(pay.body).toMatchObject({ uuid: UUID, mobile: '0812345678', email: 'runner@example.com', paid_amount: 10550 });
    expect((pay.body as { token_key: string }).token_key).toMatch(/^tokn_sandbox_[0-9a-f]+$/);
  });

  it('shows the failure popup and the error text when the card charge fails', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': inquiry({ payment_channel: 'CC' }),
      'POST /v3/order/opn-cc-payment': () =>
        new Response(JSON.stringify({ status: 'error', code: 'payment_declined', message: 'declined' }), {
          status: 402,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const user = userEvent.setup();
    renderOrder();
    await user.click(await screen.findByTestId('pay-by-card'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('contact customer relations at the LINE account @raceshot');
    expect(dialog).toHaveTextContent('The payment was declined. Please use another card.');
    expect(screen.queryByTestId('card-connecting')).not.toBeInTheDocument();
    expect(screen.getByTestId('pay-by-card')).toBeEnabled();
  });

  it('opens the OPN card form with the public key and the amount in satang', async () => {
    const configure = vi.fn();
    const open = vi.fn();
    vi.stubGlobal('OmiseCard', { configure, open });
    const { calls } = fakeFetch({
      'POST /v3/order/inquiry': inquiry({ payment_channel: 'CC', payment_gateway: 'OPN', sandbox: false, amount: 210 }),
      'POST /v1/utils/conf': { status: 'success', body: { value: 'pkey_test_123' } },
      'POST /v3/order/opn-cc-payment': { status: 'success', data: { authorize_uri: '' } },
    });
    const user = userEvent.setup();
    renderOrder();
    await user.click(await screen.findByTestId('pay-by-card'));
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(calls.find((c) => c.key === 'POST /v1/utils/conf')!.body).toEqual({ conf_name: 'OPN_PUBLIC_KEY' });
    expect(configure).toHaveBeenCalledWith({ publicKey: 'pkey_test_123' });
    const options = open.mock.calls[0]![0] as {
      amount: number;
      currency: string;
      frameDescription: string;
      onCreateTokenSuccess: (t: string) => void;
    };
    expect(options).toMatchObject({ amount: 21000, currency: 'THB', frameDescription: UUID });
    // A charge answered without an address: the visitor is told to contact the administrator.
    act(() => options.onCreateTokenSuccess('tokn_test_abc'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('@raceshot');
    expect(calls.find((c) => c.key === 'POST /v3/order/opn-cc-payment')!.body).toMatchObject({
      token_key: 'tokn_test_abc',
      paid_amount: 21000,
    });
    expect(screen.getByTestId('pay-by-card')).toBeInTheDocument();
  });

  it('shows not found for an unknown order, without the failure popup', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': () =>
        new Response(JSON.stringify({ status: 'error', code: 'order_not_found', message: 'no such order' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    });
    renderOrder();
    expect(await screen.findByTestId('order-not-found')).toHaveTextContent('Order not found');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the failure popup when the inquiry fails', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': () =>
        new Response(JSON.stringify({ status: 'error', code: 'internal', message: 'boom' }), {
          status: 500,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const user = userEvent.setup();
    renderOrder();
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'An error occurred, please try again, or contact customer relations at the LINE account @raceshot',
    );
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
