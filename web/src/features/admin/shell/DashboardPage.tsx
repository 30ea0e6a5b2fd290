//! The console's dashboard (`/admin`): the ingestion queue's depth and the operator's event
//! count at the top, then one card per event with its key, sale window, state, and the
//! server's figures: photos ready, waiting (queued or processing) and failed, faces found,
//! face searches, paid orders and revenue. Every figure is the server's; none is added up here.

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage } from '@/i18n';
import { formatBangkokDate, formatBangkokDateTime } from '@/lib/dates';
import { formatBaht } from '@/lib/money';
import { saleState, useAdminEvents } from './events';
import { shellMessages, type ShellMessageKey } from './messages';
import { RetryAlert } from './RetryAlert';
import { useIsAdmin } from './operator';
import type { AdminEvent } from './types';

function Statuses({ event, now }: { event: AdminEvent; now: number }) {
  const t = useDictionary(shellMessages);
  const chips: { key: ShellMessageKey; tone: string }[] = [];
  if (event.sale_closed) chips.push({ key: 'shell.dashboard.status.closed', tone: 'admin-chip-danger' });
  else chips.push({ key: `shell.dashboard.status.${saleState(event, now)}`, tone: '' });
  if (!event.visible) chips.push({ key: 'shell.dashboard.status.hidden', tone: 'admin-chip-muted' });
  return (
    <div className="row admin-statuses" data-testid="dashboard-status">
      {chips.map((c) => (
        <span key={c.key} className={`chip ${c.tone}`}>
          {t(c.key)}
        </span>
      ))}
    </div>
  );
}

function Fact({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** A fact that is a count, written the reader's way (1,200). */
function Count({ label, testId, value }: { label: string; testId: string; value: number }) {
  return (
    <Fact label={label} testId={testId}>
      {value.toLocaleString()}
    </Fact>
  );
}

function EventCard({ event, now, admin }: { event: AdminEvent; now: number; admin: boolean }) {
  const t = useDictionary(shellMessages);
  const [lang] = useLanguage();
  const key = encodeURIComponent(event.event_key);
  const photos = `/admin/events/${key}/photos`;
  return (
    <article className="card admin-event-card" data-testid="dashboard-event">
      <h3>{event.title}</h3>
      <Statuses event={event} now={now} />
      <dl className="admin-facts">
        <Fact label={t('shell.dashboard.key')}>
          <code>{event.event_key}</code>
        </Fact>
        <Fact label={t('shell.dashboard.eventDate')}>{formatBangkokDate(event.eventdate, lang)}</Fact>
        <Fact label={t('shell.dashboard.saleWindow')}>
          {t('shell.dashboard.saleRange', {
            start: formatBangkokDateTime(event.on_sale_start, lang),
            end: formatBangkokDateTime(event.on_sale_end, lang),
          })}
        </Fact>
        <Count label={t('shell.dashboard.photosReady')} testId="dashboard-photos" value={event.photos_ready} />
        <Count label={t('shell.dashboard.photosPending')} testId="dashboard-pending" value={event.photos_pending} />
        <Fact label={t('shell.dashboard.photosFailed')} testId="dashboard-failed">
          {event.photos_failed > 0 ? (
            <Link to={`${photos}?state=failed`} className="danger">
              {event.photos_failed.toLocaleString()}
            </Link>
          ) : (
            event.photos_failed.toLocaleString()
          )}
        </Fact>
        <Count label={t('shell.dashboard.faces')} testId="dashboard-faces" value={event.faces} />
        <Count label={t('shell.dashboard.searches')} testId="dashboard-searches" value={event.searches} />
        <Count label={t('shell.dashboard.ordersPaid')} testId="dashboard-orders" value={event.orders_paid} />
        <Fact label={t('shell.dashboard.revenue')} testId="dashboard-revenue">
          {t('shell.dashboard.amount', { amount: formatBaht(event.revenue) })}
        </Fact>
      </dl>
      <div className="row">
        <Link to={photos} className="btn btn-secondary btn-small">
          {t('shell.dashboard.photos')}
        </Link>
        {admin && (
          <Link to={`/admin/events/${key}/edit`} className="btn btn-secondary btn-small">
            {t('shell.dashboard.edit')}
          </Link>
        )}
      </div>
    </article>
  );
}

function Overview({ queueDepth, events, now }: { queueDepth: number; events: AdminEvent[]; now: number }) {
  const t = useDictionary(shellMessages);
  const onSale = events.filter((e) => !e.sale_closed && e.visible && saleState(e, now) === 'open').length;
  const tiles: { testId: string; label: ShellMessageKey; value: number }[] = [
    { testId: 'dashboard-queue-depth', label: 'shell.dashboard.queueDepth', value: queueDepth },
    { testId: 'dashboard-total-events', label: 'shell.dashboard.events', value: events.length },
    { testId: 'dashboard-total-on-sale', label: 'shell.dashboard.onSale', value: onSale },
  ];
  return (
    <section aria-label={t('shell.dashboard.totals')} className="admin-totals">
      {tiles.map((tile) => (
        <div key={tile.testId} className="card admin-total" data-testid={tile.testId}>
          <span className="admin-total-value">{tile.value.toLocaleString()}</span>
          <span className="muted">{t(tile.label)}</span>
        </div>
      ))}
    </section>
  );
}

export function DashboardPage() {
  const t = useDictionary(shellMessages);
  const admin = useIsAdmin();
  const list = useAdminEvents();
  const now = Date.now();

  return (
    <section className="admin-page" data-testid="dashboard">
      <h1>{t('shell.dashboard.title')}</h1>
      {list.isPending && <Spinner label={t('shell.loading')} />}
      {list.isError && <RetryAlert query={list} />}
      {list.isSuccess && (
        <>
          <Overview queueDepth={list.data.queue_depth} events={list.data.events} now={now} />
          {list.data.events.length === 0 ? (
            <p className="muted">{t('shell.dashboard.empty')}</p>
          ) : (
            <div className="admin-event-grid">
              {list.data.events.map((e) => (
                <EventCard key={e.event_id} event={e} now={now} admin={admin} />
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}
