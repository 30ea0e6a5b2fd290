//! Dashboard: the ingestion queue's depth at the top, and one card per event with its state
//! and every figure the server gives (photos ready, waiting and failed, faces, searches,
//! paid orders, revenue), shown as sent.

import { screen, within } from '@testing-library/react';
import { errorAnswer, fakeFetch } from '@/test/render';
import { DashboardPage } from './DashboardPage';
import { adminMe, eventList, events, photographerMe, renderAsOperator } from '../shell/testing';
import type { Me } from '../shell/types';

function renderDashboard(me: Me = adminMe) {
  return renderAsOperator(<DashboardPage />, { me, lang: 'en', path: '/admin', route: '/admin' });
}

afterEach(() => vi.unstubAllGlobals());

describe('DashboardPage', () => {
  it('renders every event with its facts, state, figures and links', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList(events, 57) });
    renderDashboard();
    const cards = await screen.findAllByTestId('dashboard-event');
    expect(cards).toHaveLength(2);
    const open = within(cards[0]!);
    expect(cards[0]).toHaveTextContent('Bangkok Night Run 2026');
    expect(cards[0]).toHaveTextContent('bkk-run-2026');
    expect(cards[0]).toHaveTextContent('1 Mar 2026, 00:00 to 1 Apr 2099, 00:00');
    expect(open.getByTestId('dashboard-status')).toHaveTextContent('On sale');
    expect(open.getByTestId('dashboard-photos')).toHaveTextContent('1,200');
    expect(open.getByTestId('dashboard-pending')).toHaveTextContent('35');
    expect(open.getByTestId('dashboard-failed')).toHaveTextContent('3');
    expect(open.getByTestId('dashboard-faces')).toHaveTextContent('3,400');
    expect(open.getByTestId('dashboard-searches')).toHaveTextContent('812');
    expect(open.getByTestId('dashboard-orders')).toHaveTextContent('42');
    expect(open.getByTestId('dashboard-revenue')).toHaveTextContent('12,345.50 THB');
    // Failed photos lead to the event's failed photos.
    expect(within(open.getByTestId('dashboard-failed')).getByRole('link')).toHaveAttribute(
      'href',
      '/admin/events/bkk-run-2026/photos?state=failed',
    );
    expect(open.getByRole('link', { name: 'Photos' })).toHaveAttribute('href', '/admin/events/bkk-run-2026/photos');
    expect(open.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/admin/events/bkk-run-2026/edit');

    const closed = within(cards[1]!);
    expect(closed.getByTestId('dashboard-status')).toHaveTextContent('Sale closed');
    expect(closed.getByTestId('dashboard-status')).toHaveTextContent('Hidden from the shop');
    expect(closed.getByTestId('dashboard-failed')).toHaveTextContent('0');
    expect(within(closed.getByTestId('dashboard-failed')).queryByRole('link')).not.toBeInTheDocument();
    expect(closed.getByTestId('dashboard-revenue')).toHaveTextContent('0.00 THB');

    // The queue's depth is the server's (57 here), not the events' waiting photos added up (35).
    expect(screen.getByTestId('dashboard-queue-depth')).toHaveTextContent('57');
    expect(screen.getByTestId('dashboard-total-events')).toHaveTextContent('2');
    expect(screen.getByTestId('dashboard-total-on-sale')).toHaveTextContent('1');
  });

  it('shows the figures in Thai too', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList(events.slice(0, 1)) });
    renderAsOperator(<DashboardPage />, { path: '/admin', route: '/admin' });
    const card = await screen.findByTestId('dashboard-event');
    expect(card).toHaveTextContent('รอหรือกำลังประมวลผล');
    expect(within(card).getByTestId('dashboard-revenue')).toHaveTextContent('12,345.50 บาท');
  });

  it('offers no edit link to a photographer', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList(events.slice(0, 1)) });
    renderDashboard(photographerMe);
    const card = await screen.findByTestId('dashboard-event');
    expect(within(card).getByRole('link', { name: 'Photos' })).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('says when there are no events, and shows a failure by its code', async () => {
    fakeFetch({ 'GET /api/admin/events': eventList([], 0) });
    const first = renderDashboard();
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-queue-depth')).toHaveTextContent('0');
    first.unmount();
    vi.unstubAllGlobals();
    fakeFetch({ 'GET /api/admin/events': errorAnswer(403, 'forbidden') });
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('This account may not do that.');
  });
});
