//! The console photos page against stand-in answers: counts and grid, hide / highlight,
//! delete of a sold photo, bib chips and their corrections, access errors (a session gone, inside the real frame), and
//! uploads through a stand-in uploader.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiFailure } from '@/api/client';
import { errorAnswer, fakeFetch } from '@/test/render';
import { adminMe, eventList, noContent, renderAsOperator, renderInConsole, signedOut } from '../shell/testing';
import type { AdminPhoto, AdminPhotoList, Uploaded } from './api';
import { PhotosPage } from './PhotosPage';
import type { Uploader } from './uploadQueue';

const PATH = '/admin/events/:eventKey/photos';
const ROUTE = '/admin/events/bkk-run-2026/photos';
const PHOTOS = 'GET /api/admin/events/bkk-run-2026/photos';

const events = eventList();

const photo = (over: Partial<AdminPhoto>): AdminPhoto => ({
  id: 1,
  original_file_name: 'DSC_0001.jpg',
  state: 'ready',
  failure_reason: null,
  face_count: 3,
  hidden: false,
  highlight: false,
  thumbnail_url: '/media/thumb/1.jpg',
  bibs: [],
  ...over,
});

const pageOf = (photos: AdminPhoto[], over: Partial<AdminPhotoList> = {}): AdminPhotoList => ({
  photos,
  total: photos.length,
  page: 1,
  page_size: 60,
  counts: { queued: 0, processing: 0, ready: 1, failed: 1 },
  ...over,
});

const twoPhotos = pageOf([
  photo({}),
  photo({ id: 2, original_file_name: 'DSC_0002.jpg', state: 'failed', failure_reason: 'not a decodable image', face_count: 0, thumbnail_url: null }),
]);

/** The event list and its two photos, and `answers` for the calls the test makes. */
function servePhotos(answers: Parameters<typeof fakeFetch>[0] = {}) {
  return fakeFetch({ 'GET /api/admin/events': events, [PHOTOS]: twoPhotos, ...answers });
}

function renderPage(uploader?: Uploader) {
  return renderAsOperator(<PhotosPage uploader={uploader} />, { path: PATH, route: ROUTE });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PhotosPage', () => {
  it('shows the event, the ingestion counts and the photos', async () => {
    fakeFetch({
      'GET /api/admin/events': events,
      [PHOTOS]: pageOf(twoPhotos.photos, { counts: { queued: 4, processing: 2, ready: 1, failed: 1 } }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Bangkok Night Run 2026' })).toBeInTheDocument();
    const progress = await screen.findByTestId('ingest-progress');
    const count = (state: string) => progress.querySelector(`[data-count="${state}"]`)?.textContent;
    expect([count('queued'), count('processing'), count('ready'), count('failed')]).toEqual(['4', '2', '1', '1']);
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
    expect(progress).toHaveAttribute('data-live', 'true');

    const cards = screen.getAllByTestId('admin-photo');
    expect(cards.map((c) => c.dataset.state)).toEqual(['ready', 'failed']);
    expect(within(cards[0]!).getByRole('img', { name: 'DSC_0001.jpg' })).toHaveAttribute('src', '/media/thumb/1.jpg');
    expect(within(cards[0]!).getByText('พบใบหน้า 3')).toBeInTheDocument();
    expect(within(cards[1]!).queryByRole('img')).toBeNull();
    expect(within(cards[1]!).getByText('สาเหตุ: not a decodable image')).toBeInTheDocument();
  });

  it('asks for the chosen state and page', async () => {
    const asked: string[] = [];
    const { fn } = fakeFetch({ 'GET /api/admin/events': events, [PHOTOS]: pageOf(twoPhotos.photos, { total: 130 }) });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith('/photos')) asked.push(url.search);
      return fn(input, init);
    });
    renderPage();
    await screen.findAllByTestId('admin-photo');
    await userEvent.click(screen.getByRole('button', { name: /^ไม่สำเร็จ/ }));
    await waitFor(() => expect(asked).toContain('?page=1&state=failed'));
    await userEvent.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(asked).toContain('?page=2&state=failed'));
  });

  it('hides a photo and makes it a highlight', async () => {
    const { calls } = servePhotos({ 'POST /api/admin/photos/1': noContent });
    renderPage();
    const [first] = await screen.findAllByTestId('admin-photo');
    await userEvent.click(within(first!).getByTestId('toggle-hidden'));
    await waitFor(() => expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1', body: { hidden: true } }));
    await waitFor(() => expect(within(first!).getByTestId('toggle-highlight')).toBeEnabled());
    await userEvent.click(within(first!).getByTestId('toggle-highlight'));
    await waitFor(() => expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1', body: { highlight: true } }));
  });

  it('says why a photo an approved privacy request hides cannot be shown again', async () => {
    const { calls } = servePhotos({
      [PHOTOS]: pageOf([photo({ hidden: true })]),
      'POST /api/admin/photos/1': errorAnswer(409, 'privacy_hold'),
    });
    renderPage();
    const [first] = await screen.findAllByTestId('admin-photo');
    await userEvent.click(within(first!).getByTestId('toggle-hidden'));
    await waitFor(() => expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1', body: { hidden: false } }));
    expect(await screen.findByText('รูปนี้ถูกซ่อนตามคำขอซ่อนรูปที่อนุมัติแล้ว จึงแสดงอีกไม่ได้')).toBeInTheDocument();
  });

  it('explains that a sold photo cannot be deleted and offers to hide it', async () => {
    const { calls } = servePhotos({
      'DELETE /api/admin/photos/1': errorAnswer(409, 'photo_sold'),
      'POST /api/admin/photos/1': noContent,
    });
    renderPage();
    const [first] = await screen.findAllByTestId('admin-photo');
    await userEvent.click(within(first!).getByTestId('delete-photo'));
    await userEvent.click(await screen.findByRole('button', { name: 'ลบรูป' }));
    // The shared text for the code, with the photo's name as the dialog's title.
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('รูปนี้อยู่ในคำสั่งซื้อแล้ว ลบไม่ได้ ซ่อนรูปแทนได้');
    expect(dialog).toHaveTextContent('DSC_0001.jpg');
    expect(calls.map((c) => c.key)).toContain('DELETE /api/admin/photos/1');
    await userEvent.click(screen.getByRole('button', { name: 'ซ่อนรูปแทน' }));
    await waitFor(() => expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1', body: { hidden: true } }));
  });

  it('deletes a photo after confirmation', async () => {
    const { calls } = servePhotos({ 'DELETE /api/admin/photos/2': noContent });
    renderPage();
    const cards = await screen.findAllByTestId('admin-photo');
    await userEvent.click(within(cards[1]!).getByTestId('delete-photo'));
    await userEvent.click(await screen.findByRole('button', { name: 'ยกเลิก' }));
    expect(calls.map((c) => c.key)).not.toContain('DELETE /api/admin/photos/2');
    await userEvent.click(within(cards[1]!).getByTestId('delete-photo'));
    await userEvent.click(await screen.findByRole('button', { name: 'ลบรูป' }));
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('DELETE /api/admin/photos/2'));
  });

  it('shows the bibs as chips: read with confidence, added marked, taken-off struck through', async () => {
    servePhotos({
      [PHOTOS]: pageOf([
        photo({
          bibs: [
            { bib: '1234', source: 'read', confidence: 0.917 },
            { bib: 'F77', source: 'added', confidence: null },
            { bib: '99', source: 'removed', confidence: 0.41 },
          ],
        }),
      ]),
    });
    renderPage();
    const [card] = await screen.findAllByTestId('admin-photo');
    const chips = within(card!).getAllByTestId('bib-chip');
    expect(chips.map((c) => [c.dataset.bib, c.dataset.source])).toEqual([
      ['1234', 'read'],
      ['F77', 'added'],
      ['99', 'removed'],
    ]);
    expect(chips[0]).toHaveTextContent('1234');
    expect(chips[0]).toHaveTextContent('92%');
    expect(chips[1]).toHaveTextContent('เพิ่มเอง');
    expect(chips[2]!.querySelector('s')).toHaveTextContent('99');
    // Searchable ones can be taken off; the taken-off one can only be restored.
    expect(within(chips[0]!).getByRole('button', { name: 'นำบิบ 1234 ออก' })).toBeInTheDocument();
    expect(within(chips[1]!).getByTestId('bib-remove')).toBeInTheDocument();
    expect(within(chips[2]!).queryByTestId('bib-remove')).toBeNull();
    expect(within(chips[2]!).getByRole('button', { name: 'คืนบิบ 99' })).toBeInTheDocument();
  });

  it('takes a bib off, restores one and adds one, refreshing the grid after each', async () => {
    const { calls } = servePhotos({
      [PHOTOS]: pageOf([
        photo({
          bibs: [
            { bib: '1234', source: 'read', confidence: 0.9 },
            { bib: '99', source: 'removed', confidence: 0.4 },
          ],
        }),
      ]),
      'POST /api/admin/photos/1/bibs': noContent,
    });
    const user = userEvent.setup();
    renderPage();
    const [card] = await screen.findAllByTestId('admin-photo');
    const listed = () => calls.filter((c) => c.key === PHOTOS).length;
    const before = listed();

    await user.click(within(card!).getByTestId('bib-remove'));
    await waitFor(() =>
      expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1/bibs', body: { bib: '1234', present: false } }),
    );
    await waitFor(() => expect(listed()).toBeGreaterThan(before));

    await waitFor(() => expect(within(card!).getByTestId('bib-restore')).toBeEnabled());
    await user.click(within(card!).getByTestId('bib-restore'));
    await waitFor(() =>
      expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1/bibs', body: { bib: '99', present: true } }),
    );

    const input = within(card!).getByTestId('bib-add-input');
    expect(within(card!).getByTestId('bib-add')).toBeDisabled();
    await user.type(input, ' A 042 ');
    await waitFor(() => expect(within(card!).getByTestId('bib-add')).toBeEnabled());
    await user.click(within(card!).getByTestId('bib-add'));
    await waitFor(() =>
      expect(calls).toContainEqual({ key: 'POST /api/admin/photos/1/bibs', body: { bib: 'A 042', present: true } }),
    );
    await waitFor(() => expect(input).toHaveValue(''));
  });

  it('says beside the field why a bib was refused, and keeps what was typed', async () => {
    servePhotos({ 'POST /api/admin/photos/1/bibs': errorAnswer(422, 'invalid_bib', { body: { errors: [{ field: 'bib', message: 'x' }] } }) });
    const user = userEvent.setup();
    renderPage();
    const [card] = await screen.findAllByTestId('admin-photo');
    const input = within(card!).getByTestId('bib-add-input');
    await user.type(input, '123456789{Enter}');
    expect(await within(card!).findByTestId('bib-add-error')).toHaveTextContent('หมายเลขบิบไม่ถูกต้อง');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveValue('123456789');
    await user.type(input, '0');
    expect(within(card!).queryByTestId('bib-add-error')).toBeNull();
  });

  it('shows the forbidden text to an operator without access', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList([]), [PHOTOS]: errorAnswer(403, 'forbidden') });
    renderPage();
    expect(await screen.findByText('บัญชีนี้ไม่มีสิทธิ์ทำรายการนี้')).toBeInTheDocument();
    expect(screen.queryByTestId('drop-zone')).toBeNull();
  });

  it('sends a signed-out operator to sign in, with the way back', async () => {
    // Signed in when the console opened; the photos' call finds the session gone.
    let session = true;
    fakeFetch({
      'GET /api/admin/me': () => (session ? adminMe : signedOut()),
      'GET /api/admin/events': events,
      [PHOTOS]: () => {
        session = false;
        return signedOut();
      },
    });
    const { router } = renderInConsole(<PhotosPage />, { path: PATH, route: ROUTE });
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent(ROUTE)}`);
  });

  it('sends the operator to sign in when an upload finds the session gone', async () => {
    let session = true;
    fakeFetch({
      'GET /api/admin/me': () => (session ? adminMe : signedOut()),
      'GET /api/admin/events': events,
      [PHOTOS]: pageOf([]),
    });
    const uploader = vi.fn<Uploader>(() => {
      session = false;
      return Promise.reject(new ApiFailure('not_signed_in', 401, 'sign in'));
    });
    const { router } = renderInConsole(<PhotosPage uploader={uploader} />, { path: PATH, route: ROUTE });
    fireEvent.change(await screen.findByTestId('photo-input'), {
      target: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })] },
    });
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent(ROUTE)}`);
  });

  it('uploads chosen photos, refuses a text file, and refreshes the counts', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/events': events, [PHOTOS]: pageOf([]) });
    const answers: ((a: Uploaded) => void)[] = [];
    const uploader = vi.fn<Uploader>(() => new Promise<Uploaded>((resolve) => answers.push(resolve)));
    renderPage(uploader);
    const input = await screen.findByTestId('photo-input');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png');
    expect(input).toHaveAttribute('multiple');
    fireEvent.change(input, {
      target: {
        files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' }), new File(['hi'], 'notes.txt', { type: 'text/plain' })],
      },
    });
    const rows = await screen.findAllByTestId('upload-row');
    expect(rows.map((r) => r.dataset.state)).toEqual(['uploading', 'failed']);
    expect(within(rows[1]!).getByText(/กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น/)).toBeInTheDocument();
    expect(uploader).toHaveBeenCalledTimes(1);
    expect(uploader.mock.calls[0]![0].name).toBe('a.jpg');
    expect(screen.getByTestId('upload-summary')).toHaveTextContent('เสร็จแล้ว 0 · ไม่สำเร็จ 1 · เหลือ 1');
    expect(screen.queryByTestId('retry-failed')).toBeNull();

    const before = calls.filter((c) => c.key === PHOTOS).length;
    answers[0]!({ photo_id: 5, result: 'queued' });
    await waitFor(() => expect(screen.getAllByTestId('upload-row')[0]).toHaveAttribute('data-state', 'done'));
    expect(screen.getByText('ส่งแล้ว รอประมวลผล')).toBeInTheDocument();
    expect(screen.getByTestId('upload-summary')).toHaveTextContent('เสร็จแล้ว 1 · ไม่สำเร็จ 1 · เหลือ 0');
    await waitFor(() => expect(calls.filter((c) => c.key === PHOTOS).length).toBeGreaterThan(before));
  });

  it('offers to retry a file that failed on the network, and sends only that one again', async () => {
    fakeFetch({ 'GET /api/admin/events': events, [PHOTOS]: pageOf([]) });
    let offline = true;
    const uploader = vi.fn<Uploader>((file) => {
      if (file.name === 'b.jpg' && offline) {
        offline = false;
        return Promise.reject(new ApiFailure('network', 0, 'offline'));
      }
      return Promise.resolve({ photo_id: 1, result: 'queued' });
    });
    renderPage(uploader);
    const zone = await screen.findByTestId('drop-zone');
    const files = [new File(['x'], 'a.jpg', { type: 'image/jpeg' }), new File(['x'], 'b.jpg', { type: 'image/jpeg' })];
    fireEvent.dragEnter(zone, { dataTransfer: { types: ['Files'], files } });
    expect(zone).toHaveAttribute('data-dragging', 'true');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files } });
    expect(zone).toHaveAttribute('data-dragging', 'false');

    const retry = await screen.findByTestId('retry-failed');
    expect(screen.getAllByTestId('upload-row').map((r) => r.dataset.state)).toEqual(['done', 'failed']);
    await userEvent.click(retry);
    await waitFor(() => expect(screen.getAllByTestId('upload-row').map((r) => r.dataset.state)).toEqual(['done', 'done']));
    expect(uploader.mock.calls.map((c) => c[0].name)).toEqual(['a.jpg', 'b.jpg', 'b.jpg']);
    expect(screen.queryByTestId('retry-failed')).toBeNull();
  });
});
