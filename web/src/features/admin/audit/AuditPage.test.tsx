//! Audit log: rows with their dates in Bangkok time, the detail folded away, paging to
//! older entries with `before`, and no call at all for a photographer.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch } from '@/test/render';
import { AuditPage } from './AuditPage';
import { adminMe, photographerMe, renderAsOperator } from '../shell/testing';
import type { Me } from '../shell/types';
import type { AuditEntry } from './api';

/** An entry as the server sends it. `detail` is free-form JSON, which the contract types as
 * an object without fields, so it is added beside the typed ones. */
function entry(id: number, detail: unknown = { closed: true }) {
  const fields: Omit<AuditEntry, 'detail'> = {
    id,
    at: '2026-03-02T10:15:00+07:00',
    actor: 'operator:17',
    actor_email: 'boss@raceshot.app',
    action: 'event.close',
    target: `event:run-${id}`,
  };
  return { ...fields, detail };
}

/** `count` entries, newest first, from id `top` down. */
const page = (top: number, count: number) => ({ entries: Array.from({ length: count }, (_, i) => entry(top - i)) });

function renderAudit(me: Me = adminMe) {
  return renderAsOperator(<AuditPage />, { me, lang: 'en', path: '/admin/audit', route: '/admin/audit' });
}

function beforeOf(input: unknown): string | null {
  return new URL((input as Request).url).searchParams.get('before');
}

afterEach(() => vi.unstubAllGlobals());

describe('AuditPage', () => {
  it('renders the entries and asks for older ones with before', async () => {
    // Answered by the `before` of the request being answered (the last one recorded).
    const answer = () =>
      beforeOf(fetched.mock.calls.at(-1)?.[0]) === null ? page(120, 50) : { entries: [entry(70, {})] };
    const { fn: fetched } = fakeFetch({ 'GET /api/admin/audit': answer });
    const user = userEvent.setup();
    renderAudit();
    const table = await screen.findByTestId('audit-table');
    const rows = within(table).getAllByTestId('audit-row');
    expect(rows).toHaveLength(50);
    expect(rows[0]).toHaveTextContent('2 Mar 2026, 10:15');
    expect(within(rows[0]!).getByTestId('audit-actor')).toHaveTextContent('boss@raceshot.app (operator:17)');
    expect(rows[0]).toHaveTextContent('event.close');
    expect(rows[0]).toHaveTextContent('event:run-120');
    const details = rows[0]!.querySelector('details');
    expect(details).not.toHaveAttribute('open');
    expect(details).toHaveTextContent('"closed": true');
    expect(beforeOf(fetched.mock.calls[0]![0])).toBeNull();

    await user.click(screen.getByTestId('audit-older'));
    expect(await screen.findByText('event:run-70')).toBeInTheDocument();
    expect(beforeOf(fetched.mock.calls[1]![0])).toBe('71');
    expect(screen.getAllByTestId('audit-row')).toHaveLength(1);
    // A short page is the last one.
    expect(screen.getByTestId('audit-older')).toBeDisabled();
    expect(screen.queryByText('Show detail')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('audit-newer'));
    expect(await screen.findByText('event:run-120')).toBeInTheDocument();
    expect(screen.getByTestId('audit-newer')).toBeDisabled();
  });

  it('names accounts by e-mail and addresses without one as such', async () => {
    const unknown = { ...entry(2), actor: 'unknown:0123456789abcdef', actor_email: null, action: 'operator.login_failed' };
    const cli = { ...entry(1), actor: 'cli:deploy', actor_email: null };
    fakeFetch({ 'GET /api/admin/audit': { entries: [entry(3), unknown, cli] } });
    renderAudit();
    const actors = (await screen.findAllByTestId('audit-actor')).map((cell) => cell.textContent);
    expect(actors).toEqual([
      'boss@raceshot.app (operator:17)',
      'An address without an account (unknown:0123456789abcdef)',
      'cli:deploy',
    ]);
  });

  it('offers no paging when everything fits on one page', async () => {
    fakeFetch({ 'GET /api/admin/audit': page(3, 3) });
    renderAudit();
    expect(await screen.findAllByTestId('audit-row')).toHaveLength(3);
    expect(screen.queryByTestId('audit-older')).not.toBeInTheDocument();
  });

  it('refuses a photographer without asking the server', () => {
    const { calls } = fakeFetch({ 'GET /api/admin/audit': page(3, 3) });
    renderAudit(photographerMe);
    expect(screen.getByRole('alert')).toHaveTextContent('This account may not do that.');
    expect(calls).toHaveLength(0);
  });
});
