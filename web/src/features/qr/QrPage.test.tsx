//! QR page: the on-screen QR, the two print canvases drawn with the code text (and the
//! logo), PNG downloads with the shop's file names, and console-only trouble.

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { QrPage } from './QrPage';

type Call = { name: string; args: unknown[]; font?: string; fillStyle?: unknown };

/** A 2D context that records what is drawn (jsdom has no canvas). */
function fakeContext() {
  const calls: Call[] = [];
  const ctx: Record<string, unknown> & { calls: Call[]; font: string; fillStyle: unknown } = {
    calls,
    fillStyle: '',
    font: '',
    textAlign: '',
    textBaseline: '',
    imageSmoothingEnabled: true,
    createImageData: (w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4), width: w, height: h }),
    fillText(...args: unknown[]) {
      calls.push({ name: 'fillText', args, font: ctx.font, fillStyle: ctx.fillStyle });
    },
  };
  for (const name of ['putImageData', 'clearRect', 'fillRect', 'drawImage', 'beginPath', 'moveTo', 'arcTo', 'closePath', 'fill']) {
    ctx[name] = (...args: unknown[]) => calls.push({ name, args, fillStyle: ctx.fillStyle });
  }
  return ctx;
}

const contexts = new Map<HTMLCanvasElement, ReturnType<typeof fakeContext>>();

function stubCanvas({ printCanvases = true } = {}) {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    if (!printCanvases && this.width === 1000) return null;
    let ctx = contexts.get(this);
    if (!ctx) {
      ctx = fakeContext();
      contexts.set(this, ctx);
    }
    return ctx as unknown as CanvasRenderingContext2D;
  } as typeof HTMLCanvasElement.prototype.getContext);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((cb: BlobCallback) =>
    cb(new Blob(['png'], { type: 'image/png' })),
  );
}

/** An `Image` that loads (or fails) right after its address is set. */
function stubImage(outcome: 'load' | 'error') {
  class FakeImage {
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    src = '';
    constructor() {
      queueMicrotask(() => (outcome === 'load' ? this.onload?.() : this.onerror?.()));
    }
  }
  vi.stubGlobal('Image', FakeImage);
}

function ctxOf(testId: string) {
  return contexts.get(screen.getByTestId<HTMLCanvasElement>(testId))!;
}

let downloads: { name: string; href: string }[];
let warn: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  contexts.clear();
  downloads = [];
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  error = vi.spyOn(console, 'error').mockImplementation(() => {});
  Object.defineProperty(URL, 'createObjectURL', { value: vi.fn(() => 'blob:qr'), configurable: true });
  Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.getAttribute('href') ?? '' });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('QrPage', () => {
  it('shows the event address QR and two print files with download buttons', async () => {
    stubCanvas();
    stubImage('load');
    renderWithProviders(<QrPage />, { path: '/eventqr/:q', route: '/eventqr/bkk-10k' });

    const address = `${window.location.origin}/bkk-10k`;
    expect(screen.getByTestId('qr-address')).toHaveTextContent(address);
    expect(screen.getByTestId('qr-code')).toHaveAttribute('aria-label', `QR Code ของ ${address}`);
    const logoCanvas = screen.getByTestId('qr-canvas-logo');
    expect(logoCanvas).toHaveAttribute('width', '1000');
    expect(logoCanvas).toHaveAttribute('height', '1000');
    expect(screen.getByTestId('qr-canvas-text')).toHaveAttribute('width', '1000');
    expect(screen.getByTestId('download-logo-qr')).toBeInTheDocument();
    expect(screen.getByTestId('download-qr')).toBeInTheDocument();
    expect(screen.getByText(`${address}/qr`)).toBeInTheDocument();

    await waitFor(() => expect(screen.getByTestId('download-logo-qr')).toBeEnabled());
    expect(screen.getByTestId('download-qr')).toBeEnabled();
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('draws the code text under the QR, and the logo on a white rounded square', async () => {
    stubCanvas();
    stubImage('load');
    renderWithProviders(<QrPage />, { path: '/eventqr/:q', route: '/eventqr/bkk-10k' });
    await waitFor(() => expect(screen.getByTestId('download-logo-qr')).toBeEnabled());

    const withLogo = ctxOf('qr-canvas-logo').calls;
    const plain = ctxOf('qr-canvas-text').calls;
    // White background first, then the QR above the text line.
    for (const calls of [withLogo, plain]) {
      expect(calls[0]).toMatchObject({ name: 'fillRect', args: [0, 0, 1000, 1000], fillStyle: '#ffffff' });
      expect(calls[1]).toMatchObject({ name: 'drawImage', args: [expect.anything(), 60, 16, 880, 880] });
    }
    expect(withLogo.filter((c) => c.name === 'fillText')).toEqual([
      { name: 'fillText', args: ['bkk-10k', 500, 950, 880], font: '30px Roboto', fillStyle: '#000000' },
    ]);
    expect(plain.filter((c) => c.name === 'fillText')).toEqual([
      { name: 'fillText', args: ['bkk-10k', 500, 960, 880], font: '30px Roboto', fillStyle: '#000000' },
    ]);
    // The QR ends at 896 px, above the text (baseline 950 / 960, 30 px tall).
    expect(16 + 880).toBeLessThan(950 - 30);

    // Logo: 150 px (15% of 1000) centred on the QR (500, 456), over a white rounded square.
    const logo = withLogo.filter((c) => c.name === 'drawImage')[1]!;
    expect(logo.args.slice(1)).toEqual([425, 381, 150, 150]);
    expect(withLogo.filter((c) => c.name === 'arcTo').map((c) => c.args[4])).toEqual([20, 20, 20, 20]);
    expect(withLogo.find((c) => c.name === 'fill')?.fillStyle).toBe('#ffffff');
    expect(plain.filter((c) => c.name === 'drawImage')).toHaveLength(1);
  });

  it('downloads each print file as a PNG named after the code', async () => {
    stubCanvas();
    stubImage('load');
    renderWithProviders(<QrPage />, { path: '/eventqr/:q', route: '/eventqr/bkk-10k' });
    await waitFor(() => expect(screen.getByTestId('download-logo-qr')).toBeEnabled());

    await userEvent.click(screen.getByTestId('download-logo-qr'));
    await userEvent.click(screen.getByTestId('download-qr'));
    expect(downloads).toEqual([
      { name: 'bkk-10k-logo-qr.png', href: 'blob:qr' },
      { name: 'bkk-10k-qr.png', href: 'blob:qr' },
    ]);
    // The temporary links are gone again.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });

  it('serves /{q}/qr the same way', async () => {
    stubCanvas();
    stubImage('load');
    renderWithProviders(<QrPage />, { path: '/:q/qr', route: '/city-run/qr' });
    expect(screen.getByTestId('qr-address')).toHaveTextContent(`${window.location.origin}/city-run`);
    await waitFor(() => expect(screen.getByTestId('download-qr')).toBeEnabled());
    await userEvent.click(screen.getByTestId('download-qr'));
    expect(downloads.map((d) => d.name)).toEqual(['city-run-qr.png']);
  });

  it('warns in the console only when the code is missing, and carries on', async () => {
    stubCanvas();
    stubImage('load');
    renderWithProviders(<QrPage />, { path: '/eventqr', route: '/eventqr' });

    expect(warn).toHaveBeenCalledWith(expect.stringContaining('no event code'));
    expect(screen.getByTestId('qr-address')).toHaveTextContent(`${window.location.origin}/`);
    expect(screen.getByTestId('qr-code')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('download-qr')).toBeEnabled());
    expect(ctxOf('qr-canvas-text').calls.filter((c) => c.name === 'fillText')).toHaveLength(0);
  });

  it('keeps the QR and text when the logo fails to load, telling only the console', async () => {
    stubCanvas();
    stubImage('error');
    renderWithProviders(<QrPage />, { path: '/eventqr/:q', route: '/eventqr/bkk-10k' });
    await waitFor(() => expect(screen.getByTestId('download-logo-qr')).toBeEnabled());

    expect(error).toHaveBeenCalledWith(expect.stringContaining('logo failed'), expect.anything());
    const withLogo = ctxOf('qr-canvas-logo').calls;
    expect(withLogo.filter((c) => c.name === 'drawImage')).toHaveLength(1);
    expect(withLogo.filter((c) => c.name === 'fillText')).toHaveLength(1);
    await userEvent.click(screen.getByTestId('download-logo-qr'));
    expect(downloads.map((d) => d.name)).toEqual(['bkk-10k-logo-qr.png']);
  });

  it('does not crash without a canvas context, and downloads nothing', async () => {
    stubCanvas({ printCanvases: false });
    stubImage('load');
    renderWithProviders(<QrPage />, { path: '/eventqr/:q', route: '/eventqr/bkk-10k' });
    await waitFor(() => expect(screen.getByTestId('download-qr')).toBeEnabled());

    expect(error).toHaveBeenCalledWith(expect.stringContaining('canvas not found'));
    await userEvent.click(screen.getByTestId('download-qr'));
    expect(downloads).toEqual([]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('nothing to download'));
    expect(screen.getByTestId('qr-code')).toBeInTheDocument();
  });

  it('downloads nothing when the browser cannot export the canvas', async () => {
    stubCanvas();
    stubImage('load');
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((cb: BlobCallback) => cb(null));
    renderWithProviders(<QrPage />, { path: '/eventqr/:q', route: '/eventqr/bkk-10k' });
    await waitFor(() => expect(screen.getByTestId('download-qr')).toBeEnabled());
    await userEvent.click(screen.getByTestId('download-qr'));
    expect(downloads).toEqual([]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('could not be exported'));
  });
});
