//! Console events list: rows with their counts (working alerts too) and links, admin-only
//! controls, and closing a sale only after the operator confirms.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch } from '@/test/render';
import {
  adminMe,
  eventList,
  events,
  noContent,
  photographerMe,
  renderAsOperator,
  renderInConsole,
  signedOut,
} from '../shell/testing';
import type { Me } from '../shell/types';
import { EventsPage } from './EventsPage';

function renderList(me: Me = adminMe) {
  return renderAsOperator(<EventsPage />, { me, lang: 'en', path: '/admin/events', route: '/admin/events' });
}

afterEach(() => vi.unstubAllGlobals());

describe('EventsPage', () => {
  it('lists every event with its dates, counts, badges and links', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList() });
    renderList();
    const rows = await screen.findAllByTestId('admin-event-row');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(rows[0]).toHaveTextContent('Bangkok Night Run 2026');
    expect(rows[0]).toHaveTextContent('bkk-run-2026');
    expect(rows[0]).toHaveTextContent('1 Mar 2026');
    expect(rows[0]).toHaveTextContent('1 Apr 2099, 00:00');
    expect(rows[0]).toHaveTextContent('In sale window');
    expect(rows[0]).toHaveTextContent('1200');
    expect(rows[0]).toHaveTextContent('3400');
    expect(screen.getByRole('columnheader', { name: 'New-photo alerts' })).toBeInTheDocument();
    expect(first.getByTestId('event-alerts')).toHaveTextContent('5');
    expect(within(rows[1]!).getByTestId('event-alerts')).toHaveTextContent('0');
    expect(first.queryByTestId('badge-closed')).not.toBeInTheDocument();
    expect(first.getByTestId('event-model-pair')).toHaveTextContent('yunet-sface');
    expect(first.queryByTestId('badge-models')).not.toBeInTheDocument();
    expect(first.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/admin/events/bkk-run-2026/edit');
    expect(first.getByRole('link', { name: 'Photos' })).toHaveAttribute('href', '/admin/events/bkk-run-2026/photos');
    expect(first.getByRole('link', { name: 'Shop page' })).toHaveAttribute('href', '/bkk-run-2026');
    expect(first.getByTestId('event-qr-link')).toHaveAttribute('href', '/eventqr/bkk-run-2026');
    expect(first.getByTestId('close-sale')).toHaveTextContent('Close sale');

    const second = within(rows[1]!);
    expect(rows[1]).toHaveTextContent('Sale window over');
    expect(second.getByTestId('badge-closed')).toHaveTextContent('Closed');
    expect(second.getByTestId('badge-hidden')).toHaveTextContent('Hidden');
    expect(second.getByTestId('event-model-pair')).toHaveTextContent('insightface → yunet-sface (moving)');
    expect(second.getByTestId('badge-models')).toHaveTextContent('Face models not for sale');
    expect(second.getByTestId('close-sale')).toHaveTextContent('Reopen');
    expect(screen.getByTestId('new-event')).toHaveAttribute('href', '/admin/events/new');
  });

  it('closes a sale only after the confirmation, posting closed: true', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'POST /api/admin/events/bkk-run-2026/close': noContent,
    });
    const user = userEvent.setup();
    renderList();
    const rows = await screen.findAllByTestId('admin-event-row');

    await user.click(within(rows[0]!).getByTestId('close-sale'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Close the sale of Bangkok Night Run 2026 now?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);

    await user.click(within(rows[0]!).getByTestId('close-sale'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close sale' }));
    await waitFor(() =>
      expect(calls).toContainEqual({ key: 'POST /api/admin/events/bkk-run-2026/close', body: { closed: true } }),
    );
    expect(await screen.findByText('Sale closed')).toBeInTheDocument();
    // The list is asked again so the row shows the new state.
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/admin/events')).toHaveLength(2));
  });

  it('reopens a closed sale with closed: false', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/events': eventList(),
      'POST /api/admin/events/cm-trail/close': noContent,
    });
    const user = userEvent.setup();
    renderList();
    const rows = await screen.findAllByTestId('admin-event-row');
    await user.click(within(rows[1]!).getByTestId('close-sale'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reopen' }));
    await waitFor(() =>
      expect(calls).toContainEqual({ key: 'POST /api/admin/events/cm-trail/close', body: { closed: false } }),
    );
  });

  it('tells the error by its code when closing fails', async () => {
    fakeFetch({
      'GET /api/admin/events': eventList(),
      'POST /api/admin/events/bkk-run-2026/close': errorAnswer(404, 'event_not_found'),
    });
    const user = userEvent.setup();
    renderList();
    const rows = await screen.findAllByTestId('admin-event-row');
    await user.click(within(rows[0]!).getByTestId('close-sale'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close sale' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This event was not found.');
  });

  it('gives a photographer the photos and shop links but no admin controls', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList(events.slice(0, 1)) });
    renderList(photographerMe);
    const rows = await screen.findAllByTestId('admin-event-row');
    await waitFor(() => expect(within(rows[0]!).getByRole('link', { name: 'Photos' })).toBeInTheDocument());
    expect(within(rows[0]!).queryByTestId('close-sale')).not.toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('new-event')).not.toBeInTheDocument();
  });

  it('sends a signed-out operator to the sign-in page and back here', async () => {
    // Signed in when the console opened; the list's call finds the session gone.
    let session = true;
    fakeFetch({
      'GET /api/admin/me': () => (session ? adminMe : signedOut()),
      'GET /api/admin/events': () => {
        session = false;
        return signedOut();
      },
    });
    const { router } = renderInConsole(<EventsPage />, { path: '/admin/events', route: '/admin/events' });
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/admin/events')}`);
  });
});
