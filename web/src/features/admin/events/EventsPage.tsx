//! Console events list (/admin/events): every event the operator may work on, with its
//! sale window, photo and face counts, its working alerts of new photos (a count only) and
//! state; admins edit, create, and end or reopen a sale from here, everyone reaches the
//! photos, the shop page and the organiser's QR page.

import './admin-events.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DataTable } from '@/components/DataTable';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { useDialog } from '@/components/Dialog';
import { useToast } from '@/components/Toast';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDate, formatBangkokDateTime } from '@/lib/dates';
import { adminKeys } from '../shell/api';
import { saleState, useAdminEvents } from '../shell/events';
import { useIsAdmin } from '../shell/operator';
import type { AdminEvent } from '../shell/types';
import { closeSale } from './api';
import { eventsMessages } from './messages';

export function EventsPage() {
  const t = useDictionary(eventsMessages);
  const common = useT();
  const errorText = useErrorText();
  const [lang] = useLanguage();
  const toast = useToast();
  const { confirm } = useDialog();
  const queryClient = useQueryClient();
  const isAdmin = useIsAdmin();
  const list = useAdminEvents();
  const events = list.data?.events;

  const close = useMutation({
    mutationFn: ({ event, closed }: { event: AdminEvent; closed: boolean }) => closeSale(event.event_key, closed),
    onSuccess: (_, { closed }) => toast.success(t(closed ? 'adminEvents.closed.done' : 'adminEvents.reopened.done')),
    onError: (e) => toast.error(errorText(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.events }),
  });

  const toggleSale = async (event: AdminEvent) => {
    const closed = !event.sale_closed;
    const ok = await confirm({
      title: t(closed ? 'adminEvents.close.title' : 'adminEvents.reopen.title', { title: event.title }),
      text: t(closed ? 'adminEvents.close.text' : 'adminEvents.reopen.text'),
      okLabel: t(closed ? 'adminEvents.close' : 'adminEvents.reopen'),
      cancelLabel: common('cancel'),
      tone: closed ? 'warning' : 'info',
    });
    if (ok) close.mutate({ event, closed });
  };

  const now = Date.now();

  return (
    <section className="page admin-events stack">
      <div className="admin-events-head">
        <h1>{t('adminEvents.title')}</h1>
        {isAdmin && (
          <Link to="/admin/events/new" className="btn btn-primary" data-testid="new-event">
            {t('adminEvents.new')}
          </Link>
        )}
      </div>

      {list.isPending && <Spinner label={common('loading')} />}
      {list.isError && <ErrorAlert error={list.error} />}
      {events?.length === 0 && <p className="muted">{t('adminEvents.empty')}</p>}

      {events && events.length > 0 && (
        <DataTable
          className="admin-events-table"
          columns={[
            t('adminEvents.col.event'),
            t('adminEvents.col.raceDate'),
            t('adminEvents.col.saleWindow'),
            { label: t('adminEvents.col.photosReady'), num: true },
            { label: t('adminEvents.col.faces'), num: true },
            { label: t('adminEvents.col.alerts'), num: true },
            t('adminEvents.col.status'),
            t('adminEvents.col.actions'),
          ]}
        >
          {events.map((event) => {
            const state = saleState(event, now);
            const busy = close.isPending && close.variables?.event.event_key === event.event_key;
            return (
              <tr key={event.event_id} data-testid="admin-event-row" data-event-key={event.event_key}>
                <td>
                  <strong className="admin-event-title">{event.title}</strong>
                  <code className="admin-event-key">{event.event_key}</code>
                </td>
                <td className="admin-events-nowrap">{formatBangkokDate(event.eventdate, lang)}</td>
                <td className="admin-events-nowrap">
                  <span className="admin-events-block">{formatBangkokDateTime(event.on_sale_start, lang)}</span>
                  <span className="admin-events-block muted">– {formatBangkokDateTime(event.on_sale_end, lang)}</span>
                </td>
                <td className="num">{event.photos_ready}</td>
                <td className="num">
                  <span className="admin-events-block">{event.faces}</span>
                  {event.model_pair && (
                    <span className="admin-events-block muted" data-testid="event-model-pair">
                      {event.moving_to
                        ? t('adminEvents.modelPair.moving', { pair: event.model_pair, next: event.moving_to })
                        : event.model_pair}
                    </span>
                  )}
                </td>
                <td className="num" data-testid="event-alerts">
                  {event.alerts}
                </td>
                <td>
                  <span className="admin-events-badges">
                    <span className={`admin-events-badge admin-events-badge-${state}`}>{t(`adminEvents.window.${state}`)}</span>
                    {event.sale_closed && (
                      <span className="admin-events-badge admin-events-badge-closed" data-testid="badge-closed">
                        {t('adminEvents.badge.closed')}
                      </span>
                    )}
                    {!event.model_pair_for_sale && (
                      <span className="admin-events-badge admin-events-badge-models" data-testid="badge-models">
                        {t('adminEvents.badge.models')}
                      </span>
                    )}
                    {!event.visible && (
                      <span className="admin-events-badge admin-events-badge-hidden" data-testid="badge-hidden">
                        {t('adminEvents.badge.hidden')}
                      </span>
                    )}
                  </span>
                </td>
                <td>
                  <div className="admin-events-actions">
                    {isAdmin && (
                      <Link
                        to={`/admin/events/${encodeURIComponent(event.event_key)}/edit`}
                        className="btn btn-secondary btn-small"
                        data-testid="edit-event"
                      >
                        {t('adminEvents.edit')}
                      </Link>
                    )}
                    <Link
                      to={`/admin/events/${encodeURIComponent(event.event_key)}/photos`}
                      className="btn btn-secondary btn-small"
                      data-testid="event-photos-link"
                    >
                      {t('adminEvents.photos')}
                    </Link>
                    {isAdmin && (
                      <Link
                        to={`/admin/events/${encodeURIComponent(event.event_key)}/results`}
                        className="btn btn-secondary btn-small"
                        data-testid="event-results-link"
                      >
                        {t('adminEvents.results')}
                      </Link>
                    )}
                    {isAdmin && (
                      <Link
                        to={`/admin/events/${encodeURIComponent(event.event_key)}/passes`}
                        className="btn btn-secondary btn-small"
                        data-testid="event-passes-link"
                      >
                        {t('adminEvents.passes')}
                      </Link>
                    )}
                    {isAdmin && (
                      <Link
                        to={`/admin/events/${encodeURIComponent(event.event_key)}/frame`}
                        className="btn btn-secondary btn-small"
                        data-testid="event-frame-link"
                      >
                        {t('adminEvents.frame')}
                      </Link>
                    )}
                    {isAdmin && (
                      <button
                        type="button"
                        className={`btn btn-small ${event.sale_closed ? 'btn-secondary' : 'btn-danger'}`}
                        data-testid="close-sale"
                        disabled={busy}
                        onClick={() => void toggleSale(event)}
                      >
                        {busy && <Spinner inline label={common('loading')} />}
                        {t(event.sale_closed ? 'adminEvents.reopen' : 'adminEvents.close')}
                      </button>
                    )}
                    <Link to={`/${encodeURIComponent(event.event_key)}`} className="admin-events-link" data-testid="event-shop-link">
                      {t('adminEvents.shopPage')}
                    </Link>
                    <Link
                      to={`/eventqr/${encodeURIComponent(event.event_key)}`}
                      className="admin-events-link"
                      data-testid="event-qr-link"
                    >
                      {t('adminEvents.qrPage')}
                    </Link>
                  </div>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </section>
  );
}
