//! The header's bell: what needs an operator's attention, gathered from several sources
//! (each a hook giving a group of notices): AM orders waiting for approval, events whose
//! photos failed processing, and, to keep an eye on sales, the latest paid orders. The badge
//! counts what needs attention only. A source whose call fails shows nothing: the bell must
//! never break the frame.

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useDictionary } from '@/i18n';
import { formatBaht } from '@/lib/money';
import { adminKeys, fetchOrders } from './api';
import { useAdminEvents } from './events';
import { shellMessages } from './messages';
import { isAdmin } from './session';
import type { Me, OrderQuery } from './types';

/** How often the bell asks again while the console stays open. */
const NOTIFICATIONS_REFRESH_MS = 60_000;
/** How many notices of one group the dropdown lists before "See all". */
const NOTICES_PER_GROUP = 5;

const AM_WAITING: OrderQuery = { channel: 'AM', status: 'INITIAL' };
const PAID: OrderQuery = { status: 'PAID' };

type Notice = { key: string; text: string; to: string };
/** `attention` is what the group adds to the badge: 0 for a group that only informs. */
type NoticeGroup = { key: string; title: string; attention: number; items: Notice[]; seeAll?: string };

const orderPath = (uuid: string) => `/admin/orders/${encodeURIComponent(uuid)}`;

/** An orders list for the bell (admins only; the server lists newest first). */
function useBellOrders(me: Me, query: OrderQuery) {
  const admin = isAdmin(me);
  const { data } = useQuery({
    queryKey: adminKeys.orderList(query),
    queryFn: () => fetchOrders(query),
    enabled: admin,
    retry: false,
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
  });
  return admin ? data : undefined;
}

/** AM (all-photos) orders waiting for an admin's approval. */
function useWaitingAmOrders(me: Me): NoticeGroup | null {
  const t = useDictionary(shellMessages);
  const data = useBellOrders(me, AM_WAITING);
  if (!data || data.total === 0) return null;
  return {
    key: 'am-orders',
    title: t('shell.notifications.amWaiting', { count: data.total }),
    attention: data.total,
    items: data.orders.slice(0, NOTICES_PER_GROUP).map((o) => ({
      key: o.uuid,
      text: t('shell.notifications.amOrder', { event: o.event_title, mobile: o.mobile, images: o.image_count }),
      to: orderPath(o.uuid),
    })),
    seeAll: '/admin/orders?channel=AM&status=INITIAL',
  };
}

/** Events with photos that failed processing: each leads to its failed photos. */
function useFailedIngests(): NoticeGroup | null {
  const t = useDictionary(shellMessages);
  const { data } = useAdminEvents({ refetchInterval: NOTIFICATIONS_REFRESH_MS });
  const failed = data?.events.filter((e) => e.photos_failed > 0) ?? [];
  if (failed.length === 0) return null;
  return {
    key: 'failed-ingests',
    title: t('shell.notifications.failed', { count: failed.length }),
    attention: failed.length,
    items: failed.slice(0, NOTICES_PER_GROUP).map((e) => ({
      key: e.event_key,
      text: t('shell.notifications.failedEvent', { event: e.title, count: e.photos_failed }),
      to: `/admin/events/${encodeURIComponent(e.event_key)}/photos?state=failed`,
    })),
    seeAll: failed.length > NOTICES_PER_GROUP ? '/admin' : undefined,
  };
}

/** The newest paid orders, with the amount the server recorded. */
function useLatestPaidOrders(me: Me): NoticeGroup | null {
  const t = useDictionary(shellMessages);
  const data = useBellOrders(me, PAID);
  if (!data || data.orders.length === 0) return null;
  return {
    key: 'paid-orders',
    title: t('shell.notifications.paid'),
    attention: 0,
    items: data.orders.slice(0, NOTICES_PER_GROUP).map((o) => ({
      key: o.uuid,
      text: t('shell.notifications.paidOrder', {
        event: o.event_title,
        mobile: o.mobile,
        amount: formatBaht(o.paid_amount),
      }),
      to: orderPath(o.uuid),
    })),
    seeAll: '/admin/orders?status=PAID',
  };
}

export function Notifications({ me }: { me: Me }) {
  const t = useDictionary(shellMessages);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const am = useWaitingAmOrders(me);
  const failed = useFailedIngests();
  const paid = useLatestPaidOrders(me);
  const groups = [am, failed, paid].filter((g): g is NoticeGroup => g !== null);
  const count = groups.reduce((sum, g) => sum + g.attention, 0);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const label = count > 0 ? t('shell.notifications.count', { count }) : t('shell.notifications');
  return (
    <div className="admin-notifications" ref={box}>
      <button
        type="button"
        className="admin-icon-button"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-haspopup="true"
        data-testid="notifications"
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2Zm6-6V11c0-3.1-1.6-5.6-4.5-6.3V4a1.5 1.5 0 0 0-3 0v.7C7.6 5.4 6 7.9 6 11v5l-2 2v1h16v-1l-2-2Z"
          />
        </svg>
        {count > 0 && (
          <span className="admin-badge" data-testid="notifications-count">
            {count}
          </span>
        )}
      </button>
      {open && (
        <div className="admin-dropdown" data-testid="notifications-panel">
          <h2 className="admin-dropdown-title">{t('shell.notifications')}</h2>
          {count === 0 && <p className="muted">{t('shell.notifications.none')}</p>}
          {groups.map((g) => (
            <section key={g.key} className="admin-notice-group" data-testid={`notices-${g.key}`}>
              <h3>{g.title}</h3>
              <ul>
                {g.items.map((n) => (
                  <li key={n.key}>
                    <Link to={n.to} onClick={() => setOpen(false)}>
                      {n.text}
                    </Link>
                  </li>
                ))}
              </ul>
              {g.seeAll && (
                <Link to={g.seeAll} className="admin-see-all" onClick={() => setOpen(false)}>
                  {t('shell.notifications.seeAll')}
                </Link>
              )}
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
