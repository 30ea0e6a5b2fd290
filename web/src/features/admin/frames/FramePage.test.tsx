//! Sponsor frame page: no frame at first; a PNG uploaded as its raw bytes with its type,
//! then shown over the grey box; the sold-photos choice saved at once; the server's
//! refusal of an opaque frame shown; a file over 8 MB refused before any call; the frame
//! taken off only once the admin confirms in the dialog.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch } from '@/test/render';
import { FramePage } from './FramePage';
import { noContent, renderAsOperator } from '../shell/testing';
import type { Frame } from './api';

const FRAME_URL = 'https://media.example.com/bkk/frame/f1.png';
const framed = (on_sold = false): Frame => ({ frame_url: FRAME_URL, on_sold });

/** A PNG's signature and a few more bytes: the page does not look inside. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const png = (name = 'frame.png') => new File([PNG], name, { type: 'image/png' });

function renderPage() {
  return renderAsOperator(<FramePage />, {
    lang: 'en',
    path: '/admin/events/:eventKey/frame',
    route: '/admin/events/bkk/frame',
  });
}

/** The requests the page sent with `method` to `path`. */
function requests(fn: { mock: { calls: unknown[][] } }, method: string, path: string): Request[] {
  return fn.mock.calls
    .map(([input]) => input)
    .filter((r): r is Request => r instanceof Request && r.method === method && new URL(r.url).pathname === path);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('FramePage', () => {
  it('shows that the event has no frame', async () => {
    fakeFetch({ 'GET /api/admin/events/bkk/frame': { on_sold: false } });
    renderPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Sponsor frame: bkk');
    expect(await screen.findByTestId('frame-none')).toHaveTextContent('This event has no frame yet.');
    expect(screen.queryByTestId('frame-preview')).not.toBeInTheDocument();
    expect(screen.queryByTestId('frame-on-sold')).not.toBeInTheDocument();
    expect(screen.queryByTestId('frame-remove')).not.toBeInTheDocument();
    expect(screen.getByTestId('frame-file')).toHaveAttribute('accept', 'image/png,image/svg+xml,.svg');
  });

  it('uploads a PNG as its bytes and shows it over the grey box', async () => {
    const { fn, calls } = fakeFetch({
      'GET /api/admin/events/bkk/frame': { on_sold: false },
      'PUT /api/admin/events/bkk/frame': framed(),
    });
    renderPage();
    await screen.findByTestId('frame-none');
    const user = userEvent.setup();
    await user.upload(screen.getByTestId('frame-file'), png());
    await user.click(screen.getByTestId('frame-upload'));
    expect(await screen.findByTestId('frame-done')).toHaveTextContent('Frame uploaded.');
    expect(screen.getByTestId('frame-done')).toHaveAttribute('role', 'status');

    const [put] = requests(fn, 'PUT', '/api/admin/events/bkk/frame');
    expect(put?.headers.get('content-type')).toBe('image/png');
    // The file's bytes as they are (read back as text by the stand-in fetch), not JSON.
    expect(calls.filter((c) => c.key === 'PUT /api/admin/events/bkk/frame').map((c) => c.body)).toEqual([
      new TextDecoder().decode(PNG),
    ]);
    const preview = screen.getByTestId('frame-preview');
    expect(preview.querySelector('img')).toHaveAttribute('src', FRAME_URL);
    expect(screen.queryByTestId('frame-none')).not.toBeInTheDocument();
    expect(screen.getByTestId('frame-on-sold')).not.toBeChecked();
  });

  it('sends an SVG as one, by its name when the browser gives no type', async () => {
    const { fn } = fakeFetch({
      'GET /api/admin/events/bkk/frame': { on_sold: false },
      'PUT /api/admin/events/bkk/frame': framed(),
    });
    renderPage();
    await screen.findByTestId('frame-none');
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(screen.getByTestId('frame-file'), new File(['<svg/>'], 'Sponsor.SVG'));
    await user.click(screen.getByTestId('frame-upload'));
    await screen.findByTestId('frame-preview');
    expect(requests(fn, 'PUT', '/api/admin/events/bkk/frame')[0]?.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('saves the sold-photos choice as soon as it is ticked', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events/bkk/frame': framed(false),
      'PUT /api/admin/events/bkk/frame/settings': (body: { on_sold: boolean }) => framed(body.on_sold),
    });
    renderPage();
    const box = await screen.findByTestId('frame-on-sold');
    expect(box).not.toBeChecked();
    const user = userEvent.setup();
    await user.click(box);
    expect(await screen.findByTestId('frame-done')).toHaveTextContent('Sold photos now also get a framed copy.');
    expect(screen.getByTestId('frame-on-sold')).toBeChecked();
    expect(calls.find((c) => c.key === 'PUT /api/admin/events/bkk/frame/settings')?.body).toEqual({ on_sold: true });

    await user.click(screen.getByTestId('frame-on-sold'));
    await waitFor(() => expect(screen.getByTestId('frame-on-sold')).not.toBeChecked());
    expect(calls.filter((c) => c.key === 'PUT /api/admin/events/bkk/frame/settings')[1]?.body).toEqual({ on_sold: false });
  });

  it('shows the refusal of a frame that is not see-through enough', async () => {
    fakeFetch({
      'GET /api/admin/events/bkk/frame': { on_sold: false },
      'PUT /api/admin/events/bkk/frame': errorAnswer(422, 'frame_not_transparent'),
    });
    renderPage();
    await screen.findByTestId('frame-none');
    const user = userEvent.setup();
    await user.upload(screen.getByTestId('frame-file'), png('opaque.png'));
    await user.click(screen.getByTestId('frame-upload'));
    const problem = await screen.findByTestId('frame-problem');
    expect(problem).toHaveAttribute('role', 'alert');
    expect(problem).toHaveTextContent(/./);
    expect(screen.queryByTestId('frame-preview')).not.toBeInTheDocument();
  });

  it('refuses a file over 8 MB, or of another kind, before any call', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/events/bkk/frame': { on_sold: false } });
    renderPage();
    await screen.findByTestId('frame-none');
    const user = userEvent.setup({ applyAccept: false });
    const big = png('huge.png');
    Object.defineProperty(big, 'size', { value: 8 * 1024 * 1024 + 1 });
    await user.upload(screen.getByTestId('frame-file'), big);
    await user.click(screen.getByTestId('frame-upload'));
    expect(screen.getByTestId('frame-problem')).toHaveTextContent('huge.png is over 8 MB.');

    await user.upload(screen.getByTestId('frame-file'), new File(['x'], 'photo.jpg', { type: 'image/jpeg' }));
    await user.click(screen.getByTestId('frame-upload'));
    expect(screen.getByTestId('frame-problem')).toHaveTextContent('photo.jpg is not a PNG or SVG file.');
    expect(calls.filter((c) => c.key.startsWith('PUT '))).toHaveLength(0);
  });

  it('takes the frame off only once the admin confirms', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events/bkk/frame': framed(true),
      'DELETE /api/admin/events/bkk/frame': noContent,
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('frame-remove'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.key === 'DELETE /api/admin/events/bkk/frame')).toHaveLength(0);

    await user.click(screen.getByTestId('frame-remove'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove the frame' }));
    expect(await screen.findByTestId('frame-done')).toHaveTextContent('Frame removed.');
    expect(screen.getByTestId('frame-none')).toBeInTheDocument();
    expect(screen.queryByTestId('frame-preview')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'DELETE /api/admin/events/bkk/frame')).toHaveLength(1);
  });
});
