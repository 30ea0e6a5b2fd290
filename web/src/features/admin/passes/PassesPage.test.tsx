//! Photo passes page: the event's batches with what each covers and how many were used; a
//! batch made with the codes' file handed to the browser's download; the all-photos cover
//! sends no photo count; bad input refused before any call; the server's refusal shown.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readText } from '@/lib/files';
import { errorAnswer, fakeFetch } from '@/test/render';
import { PassesPage } from './PassesPage';
import { renderAsOperator } from '../shell/testing';
import type { PassBatch } from './api';

const batch = (name: string, fields: Partial<PassBatch> = {}): PassBatch => ({
  batch: name,
  photos: 5,
  count: 300,
  redeemed: 12,
  created_at: '2026-11-20T06:30:00+07:00',
  ...fields,
});

const csv = () =>
  new Response('code,photos\nABCD-EFGH-JKLM,5\n', {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="passes-bkk-Entry.csv"' },
  });

function renderPage() {
  return renderAsOperator(<PassesPage />, {
    lang: 'en',
    path: '/admin/events/:eventKey/passes',
    route: '/admin/events/bkk/passes',
  });
}

// What the page hands to the browser's download (jsdom has no object addresses and does
// not follow links): each file and the name it is saved as.
let saved: { blob: Blob; name: string }[] = [];
beforeEach(() => {
  saved = [];
  const blobs: Blob[] = [];
  Object.defineProperty(URL, 'createObjectURL', {
    value: (b: Blob) => {
      blobs.push(b);
      return `blob:${String(blobs.length - 1)}`;
    },
    configurable: true,
  });
  Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs[Number((this.getAttribute('href') ?? '').slice('blob:'.length))];
    if (blob) saved.push({ blob, name: this.download });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('PassesPage', () => {
  it('lists the batches with their cover and use', async () => {
    fakeFetch({
      'GET /api/admin/events/bkk/passes': [batch('Entry'), batch('VIP', { photos: null, count: 20, redeemed: 0 })],
    });
    renderPage();
    const rows = await screen.findAllByTestId('passes-row');
    expect(rows[0]).toHaveTextContent('Entry');
    expect(rows[0]).toHaveTextContent('5 photos');
    expect(within(rows[0]!).getByTestId('passes-redeemed')).toHaveTextContent('12');
    expect(rows[1]).toHaveTextContent('Every photo found');
    expect(rows[1]).toHaveTextContent('20 Nov 2026, 06:30');
  });

  it('makes a batch and downloads its codes', async () => {
    let listed: PassBatch[] = [];
    const { calls } = fakeFetch({
      'GET /api/admin/events/bkk/passes': () => listed,
      'POST /api/admin/events/bkk/passes': () => {
        listed = [batch('Entry', { redeemed: 0 })];
        return csv();
      },
    });
    renderPage();
    expect(await screen.findByTestId('passes-empty')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('passes-batch'), ' Entry ');
    await user.clear(screen.getByTestId('passes-count'));
    await user.type(screen.getByTestId('passes-count'), '300');
    await user.click(screen.getByTestId('passes-submit'));
    expect(await screen.findByTestId('passes-made')).toHaveTextContent('300 codes made. The file passes-bkk-Entry.csv');
    expect(calls.find((c) => c.key === 'POST /api/admin/events/bkk/passes')?.body).toEqual({
      batch: 'Entry',
      count: 300,
      photos: 5,
    });
    expect(saved.map((f) => f.name)).toEqual(['passes-bkk-Entry.csv']);
    expect(await readText(saved[0]!.blob)).toBe('code,photos\nABCD-EFGH-JKLM,5\n');
    expect(await screen.findAllByTestId('passes-row')).toHaveLength(1);

    await user.type(screen.getByTestId('passes-batch'), 'VIP');
    await user.click(screen.getByTestId('passes-cover-all'));
    expect(screen.queryByTestId('passes-photos')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('passes-submit'));
    await screen.findByTestId('passes-made');
    expect(calls.filter((c) => c.key === 'POST /api/admin/events/bkk/passes')[1]?.body).toMatchObject({
      batch: 'VIP',
      photos: null,
    });
  });

  it('refuses bad input before any call and shows the server refusal', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events/bkk/passes': [],
      'POST /api/admin/events/bkk/passes': errorAnswer(422, 'invalid_field', { body: { field: 'batch' } }),
    });
    renderPage();
    const user = userEvent.setup();
    await screen.findByTestId('passes-empty');
    await user.type(screen.getByTestId('passes-batch'), 'a,b');
    await user.click(screen.getByTestId('passes-submit'));
    expect(screen.getByTestId('passes-problem')).toHaveTextContent('A batch name has 1 to 40 letters');
    await user.clear(screen.getByTestId('passes-batch'));
    await user.type(screen.getByTestId('passes-batch'), 'Entry');
    await user.clear(screen.getByTestId('passes-count'));
    await user.type(screen.getByTestId('passes-count'), '10001');
    await user.click(screen.getByTestId('passes-submit'));
    expect(screen.getByTestId('passes-problem')).toHaveTextContent('Make 1 to 10,000 codes.');
    expect(calls.filter((c) => c.key === 'POST /api/admin/events/bkk/passes')).toHaveLength(0);

    await user.clear(screen.getByTestId('passes-count'));
    await user.type(screen.getByTestId('passes-count'), '10');
    await user.click(screen.getByTestId('passes-submit'));
    expect(await screen.findByTestId('passes-problem')).toHaveTextContent(/./);
    expect(saved).toHaveLength(0);
  });
});
