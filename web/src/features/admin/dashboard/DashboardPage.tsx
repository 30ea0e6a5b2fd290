//! The console's dashboard (`/admin`): the race-day view first (`RaceDay`: what arrives, what
//! is searchable, what runners search), for admins the messages to runners per channel
//! (`MessagesPanel`), then the ingestion queue's depth and the operator's
//! event count, then one card per event with its key, sale window, state, and the
//! server's figures: photos ready, waiting (queued or processing) and failed, faces found,
//! face searches, paid orders and revenue. Every figure is the server's; none is added up here.

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { formatBangkokDate, formatBangkokDateTime } from '@/lib/dates';
import { formatBaht } from '@/lib/money';
import { saleState, useAdminEvents } from '../shell/events';
import { useIsAdmin } from '../shell/operator';
import { RetryAlert } from '../shell/RetryAlert';
import type { AdminEvent } from '../shell/types';
import { dashboardMessages, type DashboardMessageKey } from './messages';
import { MessagesPanel } from './MessagesPanel';
import { RaceDay } from './RaceDay';

function Statuses({ event, now }: { event: AdminEvent; now: number }) {
  const t = useDictionary(dashboardMessages);
  const chips: { key: DashboardMessageKey; tone: string }[] = [];
  if (event.sale_closed) chips.push({ key: 'adminDashboard.status.closed', tone: 'admin-chip-danger' });
  else chips.push({ key: `adminDashboard.status.${saleState(event, now)}`, tone: '' });
  if (!event.visible) chips.push({ key: 'adminDashboard.status.hidden', tone: 'admin-chip-muted' });
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
  const t = useDictionary(dashboardMessages);
  const [lang] = useLanguage();
  const key = encodeURIComponent(event.event_key);
  const photos = `/admin/events/${key}/photos`;
  return (
    <article className="card admin-event-card" data-testid="dashboard-event">
      <h3>{event.title}</h3>
      <Statuses event={event} now={now} />
      <dl className="admin-facts">
        <Fact label={t('adminDashboard.key')}>
          <code>{event.event_key}</code>
        </Fact>
        <Fact label={t('adminDashboard.eventDate')}>{formatBangkokDate(event.eventdate, lang)}</Fact>
        <Fact label={t('adminDashboard.saleWindow')}>
          {t('adminDashboard.saleRange', {
            start: formatBangkokDateTime(event.on_sale_start, lang),
            end: formatBangkokDateTime(event.on_sale_end, lang),
          })}
        </Fact>
        <Count label={t('adminDashboard.photosReady')} testId="dashboard-photos" value={event.photos_ready} />
        <Count label={t('adminDashboard.photosPending')} testId="dashboard-pending" value={event.photos_pending} />
        <Fact label={t('adminDashboard.photosFailed')} testId="dashboard-failed">
          {event.photos_failed > 0 ? (
            <Link to={`${photos}?state=failed`} className="danger">
              {event.photos_failed.toLocaleString()}
            </Link>
          ) : (
            event.photos_failed.toLocaleString()
          )}
        </Fact>
        <Count label={t('adminDashboard.faces')} testId="dashboard-faces" value={event.faces} />
        <Count label={t('adminDashboard.searches')} testId="dashboard-searches" value={event.searches} />
        <Count label={t('adminDashboard.ordersPaid')} testId="dashboard-orders" value={event.orders_paid} />
        <Fact label={t('adminDashboard.revenue')} testId="dashboard-revenue">
          {t('adminDashboard.amount', { amount: formatBaht(event.revenue) })}
        </Fact>
      </dl>
      <div className="row">
        <Link to={photos} className="btn btn-secondary btn-small">
          {t('adminDashboard.photos')}
        </Link>
        {admin && (
          <Link to={`/admin/events/${key}/edit`} className="btn btn-secondary btn-small">
            {t('adminDashboard.edit')}
          </Link>
        )}
      </div>
    </article>
  );
}

function Overview({ queueDepth, events, now }: { queueDepth: number; events: AdminEvent[]; now: number }) {
  const t = useDictionary(dashboardMessages);
  const onSale = events.filter((e) => !e.sale_closed && e.visible && saleState(e, now) === 'open').length;
  const tiles: { testId: string; label: DashboardMessageKey; value: number }[] = [
    { testId: 'dashboard-queue-depth', label: 'adminDashboard.queueDepth', value: queueDepth },
    { testId: 'dashboard-total-events', label: 'adminDashboard.events', value: events.length },
    { testId: 'dashboard-total-on-sale', label: 'adminDashboard.onSale', value: onSale },
  ];
  return (
    <section aria-label={t('adminDashboard.totals')} className="admin-totals">
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
  const t = useDictionary(dashboardMessages);
  const common = useT();
  const admin = useIsAdmin();
  const list = useAdminEvents();
  const now = Date.now();

  return (
    <section className="admin-page" data-testid="dashboard">
      <h1>{t('adminDashboard.title')}</h1>
      <RaceDay />
      {admin && <MessagesPanel />}
      {list.isPending && <Spinner label={common('loading')} />}
      {list.isError && <RetryAlert query={list} />}
      {list.isSuccess && (
        <>
          <Overview queueDepth={list.data.queue_depth} events={list.data.events} now={now} />
          {list.data.events.length === 0 ? (
            <p className="muted">{t('adminDashboard.empty')}</p>
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
