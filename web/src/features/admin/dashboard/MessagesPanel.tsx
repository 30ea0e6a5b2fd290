//! Messages to runners on the dashboard (admins): per channel, whether a provider is set
//! up and what it sent today against its daily cap, then the last day's messages per
//! channel by outcome (sent, only logged, capped, refused, still being sent). The
//! server's counts, shown as they come.

import { useQuery } from '@tanstack/react-query';
import { useDictionary } from '@/i18n';
import { fetchMessages, messagesKey, type MessagesBody } from './api';
import { dashboardMessages, type DashboardMessageKey } from './messages';

const OUTCOMES = ['sent', 'logged', 'capped', 'failed', 'sending'] as const;

function total(body: MessagesBody, channel: string, outcome: string): number {
  return body.counts.filter((c) => c.channel === channel && c.outcome === outcome).reduce((n, c) => n + c.count, 0);
}

export function MessagesPanel() {
  const t = useDictionary(dashboardMessages);
  const query = useQuery({ queryKey: messagesKey, queryFn: fetchMessages, refetchInterval: 60_000 });
  if (!query.isSuccess) return null;
  const body = query.data;
  return (
    <section className="card admin-messages" aria-labelledby="admin-messages-title" data-testid="dashboard-messages">
      <h2 id="admin-messages-title">{t('adminDashboard.messages.title')}</h2>
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t('adminDashboard.messages.channel')}</th>
            <th scope="col">{t('adminDashboard.messages.today')}</th>
            {OUTCOMES.map((o) => (
              <th key={o} scope="col">
                {t(`adminDashboard.messages.outcome.${o}` as DashboardMessageKey)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.channels.map((c) => (
            <tr key={c.channel} data-testid={`messages-${c.channel}`}>
              <th scope="row">
                {t(`adminDashboard.messages.channel.${c.channel}` as DashboardMessageKey)}
                {!c.delivers && <span className="chip admin-chip-muted">{t('adminDashboard.messages.logOnly')}</span>}
              </th>
              <td>{c.daily_cap === 0 ? String(c.sent_today) : `${String(c.sent_today)} / ${String(c.daily_cap)}`}</td>
              {OUTCOMES.map((o) => (
                <td key={o} data-outcome={o}>
                  {total(body, c.channel, o)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
