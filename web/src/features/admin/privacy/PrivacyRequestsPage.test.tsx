//! Console privacy requests: the list by state, the request's fields and photos beside the
//! requester's face (while pending), approving and rejecting after a confirmation (the
//! calls, the refresh), a request decided meanwhile, and the page kept from photographers.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch } from '@/test/render';
import { noContent, photographerMe, renderAsOperator, requestedUrls } from '../shell/testing';
import type { AdminPrivacyRequest } from './api';
import { PrivacyRequestsPage } from './PrivacyRequestsPage';

const pending: AdminPrivacyRequest = {
  request_id: 'req-1',
  event_key: 'bkk-10k',
  event_title: 'Bangkok 10K 2026',
  contact: '081•••5678',
  state: 'pending',
  created_at: '2026-11-16T09:30:00+07:00',
  decided_at: null,
  decided_by: null,
  notified: false,
  face_url: '/api/admin/privacy/requests/req-1/face',
  photos: [
    { photo_id: 11, thumbnail_url: 'https://img.example/t/11.jpg', similarity: 0.91 },
    { photo_id: 12, thumbnail_url: 'https://img.example/t/12.jpg', similarity: 0.74 },
  ],
};
const approved: AdminPrivacyRequest = {
  ...pending,
  request_id: 'req-0',
  state: 'approved',
  decided_at: '2026-11-17T10:00:00+07:00',
  decided_by: 'boss@raceshot.app',
  notified: true,
  face_url: null,
  photos: [{ photo_id: 11, thumbnail_url: 'https://img.example/t/11.jpg', similarity: null }],
};

afterEach(() => vi.unstubAllGlobals());

function render(route = '/admin/privacy', me = undefined as typeof photographerMe | undefined) {
  return renderAsOperator(<PrivacyRequestsPage />, { path: '/admin/privacy', route, lang: 'en', ...(me ? { me } : {}) });
}

const stateAsked = (fn: { mock: { calls: unknown[][] } }) =>
  requestedUrls(fn)
    .filter((u) => u.pathname === '/api/admin/privacy/requests')
    .map((u) => u.searchParams.get('state'));

describe('PrivacyRequestsPage', () => {
  it('lists the pending requests with their fields and the photos they would hide', async () => {
    const { fn } = fakeFetch({ 'GET /api/admin/privacy/requests': { requests: [pending] } });
    render();
    const card = await screen.findByTestId('privacy-request');
    expect(stateAsked(fn)).toEqual(['pending']);
    expect(within(card).getByTestId('privacy-event')).toHaveTextContent('Bangkok 10K 2026 (bkk-10k)');
    expect(within(card).getByTestId('privacy-contact')).toHaveTextContent('081•••5678');
    expect(within(card).getByTestId('privacy-created-at')).toHaveTextContent('2026');
    expect(within(card).getByTestId('privacy-decided-by')).toHaveTextContent('—');
    expect(within(card).getByTestId('privacy-notified')).toHaveTextContent('Not yet');
    expect(card).toHaveTextContent('Photos to hide (2)');
    expect(within(card).getAllByTestId('privacy-photo')).toHaveLength(2);
    expect(within(card).getByText('Similarity 91%')).toBeInTheDocument();
    // The requester's face, to compare the photos with, from the console's own address.
    const face = within(card).getByTestId('privacy-face');
    expect(within(face).getByRole('img', { name: 'The requester’s face' })).toHaveAttribute(
      'src',
      '/api/admin/privacy/requests/req-1/face',
    );
    expect(face).toHaveTextContent('deleted at the decision');
    expect(screen.getByTestId('privacy-tab-pending')).toHaveAttribute('aria-selected', 'true');
  });

  it('shows another state from its tab, without decision buttons', async () => {
    const { fn } = fakeFetch({
      'GET /api/admin/privacy/requests': () =>
        requestedUrls(fn).at(-1)?.searchParams.get('state') === 'approved' ? { requests: [approved] } : { requests: [] },
    });
    const { router } = render();
    expect(await screen.findByTestId('privacy-empty')).toHaveTextContent('No requests in this state.');
    await userEvent.click(screen.getByTestId('privacy-tab-approved'));
    const card = await screen.findByTestId('privacy-request');
    expect(router.state.location.search).toBe('?state=approved');
    expect(card).toHaveTextContent('Photos hidden (1)');
    expect(within(card).getByTestId('privacy-decided-by')).toHaveTextContent('boss@raceshot.app');
    expect(within(card).getByTestId('privacy-notified')).toHaveTextContent('Yes');
    expect(within(card).queryByTestId('privacy-approve')).not.toBeInTheDocument();
    expect(within(card).queryByTestId('privacy-face')).not.toBeInTheDocument();
    expect(stateAsked(fn)).toEqual(['pending', 'approved']);
  });

  it('approves after a confirmation saying how many photos are hidden, then asks the list again', async () => {
    let decided = false;
    const { calls, fn } = fakeFetch({
      'GET /api/admin/privacy/requests': () => ({ requests: decided ? [] : [pending] }),
      'POST /api/admin/privacy/requests/req-1/approve': () => {
        decided = true;
        return { photos_hidden: 2 };
      },
    });
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByTestId('privacy-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('2 photos of Bangkok 10K 2026 will be hidden');
    expect(dialog).toHaveTextContent('081•••5678');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: 2 photos hidden')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('POST /api/admin/privacy/requests/req-1/approve');
    expect(await screen.findByTestId('privacy-empty')).toBeInTheDocument();
    expect(stateAsked(fn).length).toBeGreaterThanOrEqual(2);
  });

  it('calls nothing when the confirmation is cancelled', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/privacy/requests': { requests: [pending] } });
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByTestId('privacy-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('face template of this request will be deleted');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.map((c) => c.key).filter((k) => k.startsWith('POST'))).toEqual([]);
  });

  it('rejects after a confirmation', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/privacy/requests': { requests: [pending] },
      'POST /api/admin/privacy/requests/req-1/reject': noContent,
    });
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByTestId('privacy-reject'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Request rejected')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).toContain('POST /api/admin/privacy/requests/req-1/reject');
  });

  it('tells a request decided meanwhile', async () => {
    fakeFetch({
      'GET /api/admin/privacy/requests': { requests: [pending] },
      'POST /api/admin/privacy/requests/req-1/reject': errorAnswer(409, 'privacy_request_decided'),
    });
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByTestId('privacy-reject'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('This request has already been decided.')).toBeInTheDocument();
  });

  it('is for admins only', async () => {
    const { calls } = fakeFetch({});
    render('/admin/privacy', photographerMe);
    expect(await screen.findByTestId('admin-forbidden')).toBeInTheDocument();
    await waitFor(() => expect(calls.map((c) => c.key)).not.toContain('GET /api/admin/privacy/requests'));
  });
});
