//! Dashboard: the ingestion queue's depth at the top, and one card per event with its state
//! and every figure the server gives (photos ready, waiting and failed, faces, searches,
//! paid orders, revenue), shown as sent; and the race-day view above them (the queue and its
//! wait, each busy event's charts and photographers).

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorAnswer, fakeFetch } from '@/test/render';
import { DashboardPage } from './DashboardPage';
import { adminMe, eventList, events, photographerMe, renderAsOperator } from '../shell/testing';
import type { Me } from '../shell/types';

function renderDashboard(me: Me = adminMe) {
  return renderAsOperator(<DashboardPage />, { me, lang: 'en', path: '/admin', route: '/admin' });
}

afterEach(() => vi.unstubAllGlobals());

const bucketsOf = (last: number, n = 36) => [...Array.from({ length: n - 1 }, () => 0), last];

/** A race-day answer with the given events; the queue empty. */
function raceDay(
  events: unknown[],
  queue: { depth: number; per_minute: number; expected_wait_secs: number | null } = { depth: 0, per_minute: 0, expected_wait_secs: 0 },
) {
  return {
    since: '2026-11-26T06:05:00+07:00',
    as_of: '2026-11-26T09:02:00+07:00',
    bucket_minutes: 5,
    recent_minutes: 10,
    queue,
    events,
  };
}

const quietDay = { 'GET /api/admin/race-day': raceDay([]) };

describe('DashboardPage', () => {
  it('renders every event with its facts, state, figures and links', async () => {
    fakeFetch({ ...quietDay, 'GET /api/admin/events': eventList(events, 57) });
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
    fakeFetch({ ...quietDay, 'GET /api/admin/events': eventList(events.slice(0, 1)) });
    renderAsOperator(<DashboardPage />, { path: '/admin', route: '/admin' });
    const card = await screen.findByTestId('dashboard-event');
    expect(card).toHaveTextContent('รอหรือกำลังประมวลผล');
    expect(within(card).getByTestId('dashboard-revenue')).toHaveTextContent('12,345.50 บาท');
  });

  it('offers no edit link to a photographer', async () => {
    fakeFetch({ ...quietDay, 'GET /api/admin/events': eventList(events.slice(0, 1)) });
    renderDashboard(photographerMe);
    const card = await screen.findByTestId('dashboard-event');
    expect(within(card).getByRole('link', { name: 'Photos' })).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('says when there are no events, and shows a failure by its code', async () => {
    fakeFetch({ ...quietDay, 'GET /api/admin/events': eventList([], 0) });
    const first = renderDashboard();
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-queue-depth')).toHaveTextContent('0');
    first.unmount();
    vi.unstubAllGlobals();
    fakeFetch({ ...quietDay, 'GET /api/admin/events': errorAnswer(403, 'forbidden') });
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('This account may not do that.');
  });

  it('charts race day: the queue and its wait, each busy event and its photographers', async () => {
    fakeFetch({
      'GET /api/admin/events': eventList(events, 57),
      'GET /api/admin/race-day': raceDay(
        [
          {
            event_key: 'bkk-run-2026',
            title: 'Bangkok Night Run 2026',
            received_recent: 120,
            waiting: 57,
            received: bucketsOf(300),
            searchable: bucketsOf(250),
            searches: bucketsOf(40),
            photographers: [
              { photographer_id: 4, email: 'ann@example.com', received: bucketsOf(200) },
              { photographer_id: 9, email: null, received: bucketsOf(90) },
              { photographer_id: 0, email: null, received: bucketsOf(10) },
            ],
          },
        ],
        { depth: 57, per_minute: 12.5, expected_wait_secs: 274 },
      ),
    });
    renderDashboard();
    const day = await screen.findByTestId('race-day-event');
    expect(screen.getByTestId('race-day-queue')).toHaveTextContent('57');
    expect(screen.getByTestId('race-day-pace')).toHaveTextContent('12.5 photos/min');
    expect(screen.getByTestId('race-day-wait')).toHaveTextContent('about 5 min');
    expect(within(day).getByTestId('race-day-recent')).toHaveTextContent('120');
    expect(within(day).getByTestId('race-day-waiting')).toHaveTextContent('57');
    expect(day).toHaveTextContent('300 received');
    expect(day).toHaveTextContent('250 searchable');
    expect(day).toHaveTextContent('40 face searches');
    expect(within(day).getByRole('img', { name: '300 photos received and 250 made searchable in this window' })).toBeInTheDocument();
    // The last bucket's bar, from the bottom of the chart to its top (the largest value).
    const bars = within(day).getByTestId('race-day-photos-chart').querySelectorAll('rect');
    expect(bars).toHaveLength(1);
    const rows = within(day).getAllByTestId('race-day-photographer');
    expect(rows.map((r) => r.textContent)).toEqual(['ann@example.com200', 'Photographer #990', 'Added another way10']);
    expect(day).toHaveTextContent('06:05');
    expect(day).toHaveTextContent('09:00');
  });

  it('says when race day is quiet, and when the wait is not known yet', async () => {
    fakeFetch({
      'GET /api/admin/events': eventList(events, 3),
      'GET /api/admin/race-day': raceDay([], { depth: 3, per_minute: 0, expected_wait_secs: null }),
    });
    renderDashboard();
    expect(await screen.findByTestId('race-day-quiet')).toHaveTextContent('No photos arrived and nobody searched in the last 3 hours');
    expect(screen.getByTestId('race-day-wait')).toHaveTextContent('not known yet');
  });

  it('charts another window when asked', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/events': eventList(events), ...quietDay });
    renderDashboard();
    await screen.findByTestId('race-day-quiet');
    await userEvent.selectOptions(screen.getByTestId('race-day-hours'), 'Last 12 h');
    await screen.findByText('No photos arrived and nobody searched in the last 12 hours');
    expect(calls.filter((c) => c.key === 'GET /api/admin/race-day')).toHaveLength(2);
  });

  it('shows admins each channel today against its cap, and the last day by outcome', async () => {
    const { calls } = fakeFetch({
      ...quietDay,
      'GET /api/admin/events': eventList([], 0),
      'GET /api/admin/messages': {
        since: '2026-11-25T09:00:00+07:00',
        channels: [
          { channel: 'email', delivers: false, daily_cap: 0, sent_today: 0 },
          { channel: 'sms', delivers: true, daily_cap: 1000, sent_today: 12 },
          { channel: 'line', delivers: true, daily_cap: 1000, sent_today: 3 },
        ],
        counts: [
          { channel: 'sms', kind: 'order_ready', outcome: 'sent', count: 9 },
          { channel: 'sms', kind: 'order_link', outcome: 'sent', count: 3 },
          { channel: 'sms', kind: 'order_ready', outcome: 'failed', count: 1 },
          { channel: 'line', kind: 'order_link', outcome: 'capped', count: 2 },
        ],
      },
    });
    renderDashboard();
    const panel = await screen.findByTestId('dashboard-messages');
    const sms = within(panel).getByTestId('messages-sms');
    expect(sms).toHaveTextContent('12 / 1000');
    expect(sms.querySelector('[data-outcome="sent"]')).toHaveTextContent('12');
    expect(sms.querySelector('[data-outcome="failed"]')).toHaveTextContent('1');
    expect(within(panel).getByTestId('messages-line').querySelector('[data-outcome="capped"]')).toHaveTextContent('2');
    expect(within(panel).getByTestId('messages-email')).toHaveTextContent('log only');
    expect(calls.some((c) => c.key === 'GET /api/admin/messages')).toBe(true);
  });

  it('shows photographers no message counts', async () => {
    const { calls } = fakeFetch({ ...quietDay, 'GET /api/admin/events': eventList(events.slice(0, 1)) });
    renderDashboard(photographerMe);
    await screen.findByTestId('dashboard-event');
    expect(screen.queryByTestId('dashboard-messages')).toBeNull();
    expect(calls.some((c) => c.key === 'GET /api/admin/messages')).toBe(false);
  });
});
