//! Order page: what each order state shows and which calls its buttons make, and the
//! finisher certificate an order buys (its line while unpaid, its downloads once paid; an
//! order of a certificate alone shows no photos).

import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';
import type { InquiryResponse } from '@/api/types';
import { ZIP_IN_PAGE_MAX_BYTES } from '@/lib/constants';
import { errorAnswer, errorResponse, fakeFetch, renderWithProviders } from '@/test/render';
import { OrderPage } from './OrderPage';

vi.mock('qrcode', () => ({ default: { toCanvas: vi.fn(() => Promise.resolve()) } }));

const UUID = '6f1c2b1e-1111-4222-8333-944455556666';

function inquiry(over: Partial<InquiryResponse> = {}): InquiryResponse {
  return {
    status: 'success',
    payment_status: 'INITIAL',
    // Masked by the server, as every inquiry now answers them.
    mobile: '081****678',
    email: 'r***@example.com',
    amount: 210,
    is_original_image_created: 'N',
    is_logo_image_created: 'N',
    is_frame_image_created: 'N',
    variants: ['original', 'logo'],
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
    end_reason: '',
    refund_due: 0,
    photos_withdrawn: 0,
    certificate: null,
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

/** Serves the order's ZIPs with `answer`, recording the addresses asked; other calls go on
 * to the fake server. */
function serveZip(answer: () => Response | Promise<Response>): string[] {
  const inner = globalThis.fetch;
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (!url.pathname.endsWith('/download.zip')) return inner(input, init);
    asked.push(`${url.pathname}${url.search}`);
    return answer();
  });
  return asked;
}

const zipAnswer = (bytes: number[], headers: Record<string, string> = {}) =>
  new Response(new Uint8Array(bytes), { status: 200, headers: { 'content-type': 'application/zip', ...headers } });

/** A ZIP answer whose bytes the test sends chunk by chunk. */
function zipStream(headers: Record<string, string> = {}) {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  const response = new Response(body, { status: 200, headers: { 'content-type': 'application/zip', ...headers } });
  return { response, stream: () => controller! };
}

/** What the page hands to the browser's download: the object address and the file name. */
function catchSaves() {
  const saved: { href: string; download: string }[] = [];
  const blobs: Blob[] = [];
  // jsdom has no object addresses: each Blob gets a numbered stand-in.
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: (blob: Blob) => {
      blobs.push(blob);
      return `blob:zip-${String(blobs.length)}`;
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  return { saved, blobs };
}

/** Opens a paid order and confirms the download of its originals. */
async function confirmDownloadAll() {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('download-all'));
  await user.click(await screen.findByRole('button', { name: 'Download' }));
  return user;
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

  it('shows the masked mobile and e-mail exactly as the inquiry gives them', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry() });
    renderOrder();
    expect(await screen.findByTestId('order-mobile')).toHaveTextContent(/^081\*\*\*\*678$/);
    expect(screen.getByTestId('order-mobile').parentElement).toHaveTextContent('Mobile: 081****678');
    expect(screen.getByTestId('order-email')).toHaveTextContent(/^r\*\*\*@example\.com$/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
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

  it('takes the samples from the configured media base (a CDN)', async () => {
    const meta = document.createElement('meta');
    meta.name = 'raceshot-media-base';
    meta.content = 'https://cdn.example.com/photos';
    document.head.appendChild(meta);
    try {
      fakeFetch({ 'POST /v3/order/inquiry': inquiry() });
      renderOrder();
      const samples = within(await screen.findByTestId('sample-photos')).getAllByRole('img');
      expect(samples.map((i) => i.getAttribute('src'))).toEqual([
        'https://cdn.example.com/photos/bangkok-run/thumbnail/a.jpg',
        'https://cdn.example.com/photos/bangkok-run/thumbnail/b.jpg',
      ]);
    } finally {
      meta.remove();
    }
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

    // Download all: confirm with the count, then the server's ZIP, handed to the browser
    // under the shop's file names.
    const asked = serveZip(() => zipAnswer([1, 2, 3, 4], { 'content-length': '4' }));
    const { saved, blobs } = catchSaves();
    await user.click(screen.getByTestId('download-all'));
    expect(await screen.findByText('Download 2 original photos as one ZIP file?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByTestId('download-started')).toHaveTextContent('The ZIP of the originals is downloaded');
    expect(asked).toEqual([`/api/orders/${UUID}/download.zip?variant=original`]);
    expect(saved).toEqual([{ href: 'blob:zip-1', download: `${UUID}.zip` }]);
    expect(blobs[0]?.size).toBe(4);

    await user.click(screen.getByTestId('download-all-logo'));
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(asked[1]).toBe(`/api/orders/${UUID}/download.zip?variant=logo`);
    expect(saved[1]).toEqual({ href: 'blob:zip-2', download: `${UUID}-logo.zip` });
  });

  it('leaves a ZIP too large for the page to the browser\'s own download', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    const big = String(ZIP_IN_PAGE_MAX_BYTES + 1);
    const asked = serveZip(() => zipAnswer([1, 2], { 'content-length': big }));
    const { saved, blobs } = catchSaves();
    renderOrder();
    await confirmDownloadAll();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked).toEqual([`/api/orders/${UUID}/download.zip?variant=original`]);
    expect(saved[0]).toEqual({ href: `/api/orders/${UUID}/download.zip?variant=original`, download: `${UUID}.zip` });
    expect(blobs).toHaveLength(0);
  });

  it('shows the ZIP being prepared, then the percent received when its length is known', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    let answer: (r: Response) => void = () => undefined;
    serveZip(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { saved } = catchSaves();
    renderOrder();
    await confirmDownloadAll();

    const preparing = await screen.findByTestId('download-progress');
    expect(preparing).toHaveTextContent('Preparing the ZIP of the originals');
    // Nothing is known of the size yet: an indeterminate bar.
    expect(within(preparing).getByRole('progressbar')).not.toHaveAttribute('value');
    expect(screen.getByTestId('download-all')).toBeDisabled();

    const { response, stream } = zipStream({ 'content-length': '100' });
    answer(response);
    act(() => stream().enqueue(new Uint8Array(50)));
    await waitFor(() => expect(screen.getByTestId('download-progress')).toHaveTextContent('Downloading the ZIP of the originals: 50%'));
    expect(within(screen.getByTestId('download-progress')).getByRole('progressbar')).toHaveAttribute('value', '50');
    expect(saved).toEqual([]);

    act(() => {
      stream().enqueue(new Uint8Array(50));
      stream().close();
    });
    expect(await screen.findByTestId('download-started')).toBeInTheDocument();
    expect(saved).toEqual([{ href: 'blob:zip-1', download: `${UUID}.zip` }]);
    expect(screen.queryByTestId('download-progress')).not.toBeInTheDocument();
    expect(screen.getByTestId('download-all')).toBeEnabled();
  });

  it('shows the megabytes received and an indeterminate bar when the length is not known', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    const { response, stream } = zipStream();
    serveZip(() => response);
    const { saved, blobs } = catchSaves();
    renderOrder();
    await confirmDownloadAll();

    act(() => stream().enqueue(new Uint8Array(1_500_000)));
    const progress = await screen.findByText('Downloading the ZIP of the originals: 1.5 MB received');
    expect(within(progress.parentElement!).getByRole('progressbar')).not.toHaveAttribute('value');
    act(() => stream().close());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(blobs[0]?.size).toBe(1_500_000);
  });

  it('says Download Error when the server fails, and downloads on retry', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    let answers = 0;
    const asked = serveZip(() =>
      ++answers === 1
        ? errorResponse(503, 'internal', { body: { message: 'boom' } })
        : zipAnswer([1, 2]),
    );
    const { saved } = catchSaves();
    renderOrder();
    const user = await confirmDownloadAll();

    const error = await screen.findByTestId('download-error');
    expect(error).toHaveTextContent('Download Error');
    expect(error).toHaveTextContent('Failed to download. Please try again.');
    expect(saved).toEqual([]);
    expect(screen.getByTestId('download-all')).toBeEnabled();

    await user.click(within(error).getByTestId('download-retry'));
    expect(await screen.findByTestId('download-started')).toBeInTheDocument();
    expect(screen.queryByTestId('download-error')).not.toBeInTheDocument();
    expect(asked).toHaveLength(2);
    expect(saved).toEqual([{ href: 'blob:zip-1', download: `${UUID}.zip` }]);
  });

  it('says Download Error when the connection drops midway or never comes', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid() });
    const { response, stream } = zipStream({ 'content-length': '100' });
    let answers = 0;
    serveZip(() => {
      if (++answers === 1) return response;
      throw new TypeError('Failed to fetch');
    });
    const { saved } = catchSaves();
    renderOrder();
    const user = await confirmDownloadAll();

    act(() => stream().enqueue(new Uint8Array(10)));
    await screen.findByText('Downloading the ZIP of the originals: 10%');
    act(() => stream().error(new TypeError('network connection lost')));
    const error = await screen.findByTestId('download-error');
    expect(error).toHaveTextContent('Failed to download. Please try again.');
    expect(error).toHaveTextContent('Cannot connect');

    await user.click(within(error).getByTestId('download-retry'));
    await waitFor(() => expect(answers).toBe(2));
    expect(await screen.findByTestId('download-error')).toHaveTextContent('Download Error');
    expect(saved).toEqual([]);
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
        images_paid: JSON.stringify((JSON.parse(paidImages) as object[]).map((i) => ({ ...i, image_logo: '' }))),
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

  it('gives a free download of a framed event as framed photos only', async () => {
    english();
    const framedOnly = (JSON.parse(paidImages) as { id: number }[]).map((i) => ({
      ...i,
      image: '',
      image_logo: '',
      image_frame: `/api/orders/x/photos/${String(i.id)}/frame?exp=1&sig=ff`,
    }));
    fakeFetch({
      'POST /v3/order/inquiry': paid({
        payment_channel: 'FREE',
        amount: 0,
        is_logo_image_created: 'N',
        is_frame_image_created: 'Y',
        variants: ['frame'],
        images_paid: JSON.stringify(framedOnly),
      }),
    });
    const user = userEvent.setup();
    renderOrder();
    expect(await screen.findByTestId('download-all-frame')).toBeEnabled();
    expect(screen.queryByTestId('download-all')).not.toBeInTheDocument();
    expect(screen.queryByTestId('variant-original')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('download-photo')[0]).toHaveAttribute(
      'href',
      '/api/orders/x/photos/11/frame?exp=1&sig=ff&openExternalBrowser=1',
    );
    const asked = serveZip(() => zipAnswer([1, 2], { 'content-length': '2' }));
    const { saved } = catchSaves();
    await user.click(screen.getByTestId('download-all-frame'));
    expect(await screen.findByText("Download 2 photos with the sponsor's frame as one ZIP file?")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByTestId('download-started')).toHaveTextContent('The ZIP of the photos with frame is downloaded');
    expect(asked).toEqual([`/api/orders/${UUID}/download.zip?variant=frame`]);
    expect(saved).toEqual([{ href: 'blob:zip-1', download: `${UUID}-frame.zip` }]);
  });

  it('offers the framed copies of a paid order beside the original and the logo copy once made', async () => {
    english();
    const withFrame = (JSON.parse(paidImages) as { id: number }[]).map((i) => ({
      ...i,
      image_frame: `/api/orders/x/photos/${String(i.id)}/frame?exp=1&sig=ff`,
    }));
    fakeFetch({
      'POST /v3/order/inquiry': paid({
        variants: ['original', 'logo', 'frame'],
        is_frame_image_created: 'N',
        images_paid: JSON.stringify(withFrame.map((i) => ({ ...i, image_frame: '' }))),
      }),
    });
    renderOrder();
    const stepper = await screen.findByTestId('order-stepper');
    expect(within(stepper).getAllByRole('listitem').map((li) => li.textContent?.replace('In progress', ''))).toEqual([
      '✓Paid',
      '✓Original photos ready',
      '✓Photos with logo ready',
      '4Photos with frame ready',
      '5Completed',
    ]);
    expect(screen.getByTestId('download-all-frame')).toBeDisabled();
    expect(screen.getByTestId('download-preparing')).toBeInTheDocument();
    expect(screen.queryByTestId('variant-frame')).not.toBeInTheDocument();
    cleanup();

    fakeFetch({
      'POST /v3/order/inquiry': paid({
        variants: ['original', 'logo', 'frame'],
        is_frame_image_created: 'Y',
        images_paid: JSON.stringify(withFrame),
      }),
    });
    const user = userEvent.setup();
    renderOrder();
    expect(await screen.findByTestId('download-all-frame')).toBeEnabled();
    await user.click(screen.getByTestId('variant-frame'));
    expect(screen.getAllByTestId('download-photo')[1]).toHaveAttribute(
      'href',
      '/api/orders/x/photos/12/frame?exp=1&sig=ff&openExternalBrowser=1',
    );
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
    const asked = serveZip(() => zipAnswer([1]));
    renderOrder();
    await user.click(await screen.findByTestId('download-all'));
    expect(await screen.findByText('Please open in Chrome or Safari')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    expect(click).not.toHaveBeenCalled();
    expect(asked).toEqual([]);
  });

  it('says why an order lost a photo and that money which came anyway is refunded', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': inquiry({
        payment_status: 'CANCELLED',
        end_reason: 'photo_withdrawn',
        photos_withdrawn: 1,
        refund_due: 210,
      }),
    });
    renderOrder();
    expect(await screen.findByTestId('order-closed-why')).toHaveTextContent(
      '1 photo(s) in this order were withdrawn at the request of the person in them',
    );
    expect(screen.getByTestId('order-refund-due')).toHaveTextContent('210.00 baht');
  });

  it('shows the wholesale approval request with its links, and copies it', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': inquiry({
        payment_channel: 'AM',
        payment_gateway: 'GBP',
        sandbox: false,
        am_order_ref: '5f0c1a2e…',
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
    // The earlier order is named by the server's masked reference, never as a link.
    expect(text).toContain('Previous all-photos order (reference): 5f0c1a2e…');
    expect(text.match(/\/download\//g)).toHaveLength(1);
    // The masked number is quoted, never put in the find-order link (which would refuse it).
    expect(text).toContain(`Find orders by mobile: ${origin}/find-order\n`);
    expect(text).not.toContain('?mobile=');
    expect(text).toContain('Mobile: 081****678');
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
    // The masked contact goes back as the inquiry gave it; the server accepts it.
    expect(pay.body).toMatchObject({ uuid: UUID, mobile: '081****678', email: 'r***@example.com', paid_amount: 10550 });
    expect((pay.body as { token_key: string }).token_key).toMatch(/^tokn_sandbox_[0-9a-f]+$/);
  });

  it('shows the failure popup and the error text when the card charge fails', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': inquiry({ payment_channel: 'CC' }),
      'POST /v3/order/opn-cc-payment': errorAnswer(402, 'payment_declined', { body: { message: 'declined' } }),
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
    // The page also asks whether LINE is set up.
    expect(calls.filter((c) => c.key === 'POST /v1/utils/conf').map((c) => c.body)).toContainEqual({
      conf_name: 'OPN_PUBLIC_KEY',
    });
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
      'POST /v3/order/inquiry': errorAnswer(404, 'order_not_found', { body: { message: 'no such order' } }),
    });
    renderOrder();
    expect(await screen.findByTestId('order-not-found')).toHaveTextContent('Order not found');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the failure popup when the inquiry fails', async () => {
    english();
    fakeFetch({
      'POST /v3/order/inquiry': errorAnswer(500, 'internal', { body: { message: 'boom' } }),
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

describe('finisher certificate', () => {
  const IMAGE = `/api/orders/${UUID}/certificate/image`;
  const PRINT = `/api/orders/${UUID}/certificate/print`;
  const unpaidCertificate = { bib: '42', price: 49, image_url: null, print_url: null };
  const paidCertificate = { bib: '42', price: 49, image_url: IMAGE, print_url: PRINT };
  /** An order of the certificate alone: no photo in it. */
  const alone = { image_length: 0, images_order: '[]', images_paid: '[]', amount: 51.45, photos_amount: 49, payment_fee: 2.45 };

  it('is a line of the unpaid order’s amount, without downloads', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry({ certificate: unpaidCertificate, photos_amount: 249 }) });
    renderOrder();
    expect(await screen.findByTestId('order-certificate-line')).toHaveTextContent('Finisher certificate · bib 42: 49.00 THB');
    expect(screen.getByText('Photos and certificate 249.00 THB + payment fee 10.00 THB')).toBeInTheDocument();
    expect(screen.getByTestId('sample-photos')).toBeInTheDocument();
    expect(screen.queryByTestId('order-certificate')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-certificate-image')).not.toBeInTheDocument();
  });

  it('is downloaded from the paid order, beside its photos', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid({ certificate: paidCertificate }) });
    renderOrder();
    const block = await screen.findByTestId('order-certificate');
    expect(block).toHaveTextContent('Finisher certificate');
    expect(block).toHaveTextContent('bib 42');
    expect(within(block).getByTestId('order-certificate-preview')).toHaveAttribute('src', IMAGE);
    const image = within(block).getByTestId('order-certificate-image');
    expect(image).toHaveAttribute('href', IMAGE);
    expect(image).toHaveAttribute('download');
    const print = within(block).getByTestId('order-certificate-print');
    expect(print).toHaveAttribute('href', PRINT);
    expect(print).toHaveAttribute('download');
    expect(print).toHaveTextContent('Download the PDF (A4)');
    // The photos are delivered as ever.
    expect(screen.getAllByTestId('paid-photo')).toHaveLength(2);
    expect(screen.getByTestId('download-all')).toBeEnabled();
    expect(screen.queryByTestId('order-certificate-line')).not.toBeInTheDocument();
  });

  it('alone, is paid for with its own wording and no photos nor End of Sale', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry({ ...alone, certificate: unpaidCertificate }) });
    renderOrder();
    expect(await screen.findByTestId('order-certificate-line')).toHaveTextContent('bib 42: 49.00 THB');
    expect(screen.getByText('Certificate 49.00 THB + payment fee 2.45 THB')).toBeInTheDocument();
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
    expect(screen.queryByTestId('storage-expired')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sample-photos')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-certificate')).not.toBeInTheDocument();
  });

  it('alone and paid, shows only the certificate: no gallery, stepper nor ZIP', async () => {
    english();
    // Whatever the photo flags say, an order without photos has none to make.
    fakeFetch({
      'POST /v3/order/inquiry': paid({ ...alone, certificate: paidCertificate, is_original_image_created: 'N' }),
    });
    renderOrder();
    const block = await screen.findByTestId('order-certificate');
    expect(within(block).getByTestId('order-certificate-image')).toHaveAttribute('href', IMAGE);
    expect(within(block).getByTestId('order-certificate-print')).toHaveAttribute('href', PRINT);
    expect(screen.queryByTestId('paid-photos')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-stepper')).not.toBeInTheDocument();
    expect(screen.queryByTestId('download-all')).not.toBeInTheDocument();
    expect(screen.queryByTestId('download-all-logo')).not.toBeInTheDocument();
    expect(screen.queryByTestId('storage-expired')).not.toBeInTheDocument();
    expect(screen.queryByText(/photos/i)).not.toBeInTheDocument();
  });

  it('alone and expired, is ordered again from the runner’s result', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry({ ...alone, certificate: unpaidCertificate, payment_status: 'EXPIRED' }) });
    renderOrder();
    expect(await screen.findByTestId('order-closed-why')).toHaveTextContent('To get the certificate, please find your result');
    expect(screen.getByTestId('search-again')).toHaveTextContent('Find my result again');
  });
});

describe('Send to my LINE', () => {
  const conf = (value: string) => (body: unknown) =>
    (body as { conf_name?: string }).conf_name === 'LINE_LOGIN'
      ? { status: 'success', body: { value } }
      : errorResponse(422, 'invalid_field');

  it('links the order through LINE Login when the shop has LINE set up', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': inquiry(), 'POST /v1/utils/conf': conf('on') });
    renderOrder();
    const link = await screen.findByTestId('send-to-line-link');
    expect(link).toHaveTextContent('Send to my LINE');
    // A plain navigation (LINE's in-app browser follows it as any other).
    expect(link).toHaveAttribute('href', `/api/line/link/order/${UUID}`);
    expect(screen.queryByTestId('line-outcome')).toBeNull();
  });

  it('says how the login went when LINE sends the runner back', async () => {
    english();
    fakeFetch({ 'POST /v3/order/inquiry': paid(), 'POST /v1/utils/conf': conf('on') });
    renderWithProviders(<OrderPage />, { path: '/download/:q', route: `/download/${UUID}?line=linked` });
    const outcome = await screen.findByTestId('line-outcome');
    expect(outcome).toHaveAttribute('data-outcome', 'linked');
    expect(outcome).toHaveTextContent('Linked to LINE');
    expect(screen.getByTestId('send-to-line-link')).toHaveTextContent('Send to another LINE account');
  });

  it('offers nothing where LINE is not set up', async () => {
    fakeFetch({ 'POST /v3/order/inquiry': inquiry(), 'POST /v1/utils/conf': conf('off') });
    renderOrder();
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveAttribute('data-status', 'INITIAL'));
    expect(screen.queryByTestId('send-to-line')).toBeNull();
  });
});

describe('Send to my LINE on an ended order', () => {
  it('is not offered once the order expired', async () => {
    fakeFetch({
      'POST /v3/order/inquiry': inquiry({ payment_status: 'EXPIRED' }),
      'POST /v1/utils/conf': { status: 'success', body: { value: 'on' } },
    });
    renderOrder();
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveAttribute('data-status', 'EXPIRED'));
    expect(screen.queryByTestId('send-to-line')).toBeNull();
  });
});
