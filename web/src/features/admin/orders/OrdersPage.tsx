//! Console orders list (/admin/orders, admins): filters by event, status, channel, mobile
//! and creation dates, kept in the address so a filtered list can be shared or reloaded;
//! 50 orders a page. AM orders waiting for approval stand out.

import './admin-orders.css';
import { useState, type SyntheticEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isPaymentChannel, isPaymentStatus, PAYMENT_CHANNELS, PAYMENT_STATUSES } from '@/api/types';
import { DataTable } from '@/components/DataTable';
import { ErrorAlert } from '@/components/ErrorAlert';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { formatBangkokDateTime } from '@/lib/dates';
import { formatBaht } from '@/lib/money';
import { AdminPagination } from '../shell/AdminPagination';
import { useAdminEvents } from '../shell/events';
import { AdminOnly } from '../shell/operator';
import type { AdminOrderRow } from '../shell/types';
import { awaitsApproval } from './labels';
import { ordersMessages } from './messages';
import { FILTER_NAMES, orderQuery, useAdminOrders, type OrderFilters } from './api';

export function OrdersPage() {
  const t = useDictionary(ordersMessages);
  return (
    <section className="page admin-orders stack">
      <h1>{t('adminOrders.title')}</h1>
      <AdminOnly>
        <OrdersList />
      </AdminOnly>
    </section>
  );
}

function readFilters(params: URLSearchParams): OrderFilters {
  const filters = {} as OrderFilters;
  for (const name of FILTER_NAMES) filters[name] = params.get(name) ?? '';
  return filters;
}

function OrdersList() {
  const t = useDictionary(ordersMessages);
  const common = useT();
  const [params, setParams] = useSearchParams();
  const applied = readFilters(params);
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const orders = useAdminOrders(orderQuery(applied, page));

  const apply = (filters: OrderFilters, nextPage = 1) => {
    const next = new URLSearchParams();
    for (const name of FILTER_NAMES) {
      const value = filters[name].trim();
      if (value !== '') next.set(name, value);
    }
    if (nextPage > 1) next.set('page', String(nextPage));
    setParams(next);
  };

  const data = orders.data;

  return (
    <>
      <Filters applied={applied} appliedKey={params.toString()} onApply={apply} />
      {orders.isPending && <Spinner label={common('loading')} />}
      {orders.isError && <ErrorAlert error={orders.error} />}
      {data && (
        <>
          <p className="muted" data-testid="orders-total">
            {t('adminOrders.total', { count: data.total })}
            {orders.isFetching && <Spinner inline label={common('loading')} />}
          </p>
          {data.orders.length === 0 ? (
            <p className="muted">{t('adminOrders.empty')}</p>
          ) : (
            <DataTable
              className="admin-orders-table"
              columns={[
                t('adminOrders.col.date'),
                t('adminOrders.col.order'),
                t('adminOrders.col.event'),
                t('adminOrders.col.mobile'),
                t('adminOrders.col.channel'),
                t('adminOrders.col.status'),
                { label: t('adminOrders.col.amount'), num: true },
              ]}
            >
              {data.orders.map((order) => (
                <OrderRow key={order.uuid} order={order} />
              ))}
            </DataTable>
          )}
          <AdminPagination page={page} total={data.total} pageSize={data.page_size} onChange={(p) => apply(applied, p)} />
        </>
      )}
    </>
  );
}

function OrderRow({ order }: { order: AdminOrderRow }) {
  const t = useDictionary(ordersMessages);
  const common = useT();
  const [lang] = useLanguage();
  const waiting = awaitsApproval(order);
  return (
    <tr data-testid="admin-order-row" className={waiting ? 'admin-order-waiting' : undefined}>
      <td className="admin-orders-nowrap">{formatBangkokDateTime(order.created_at, lang)}</td>
      <td>
        <Link to={`/admin/orders/${encodeURIComponent(order.uuid)}`} className="admin-order-uuid" data-testid="order-link">
          {order.uuid}
        </Link>
      </td>
      <td>
        <span className="admin-order-event">{order.event_title}</span>
        <code className="admin-order-key">{order.event_key}</code>
      </td>
      <td className="admin-orders-nowrap">{order.mobile}</td>
      <td>{isPaymentChannel(order.payment_channel) ? t(`adminOrders.channel.${order.payment_channel}`) : order.payment_channel}</td>
      <td>
        <span className={`admin-order-status admin-order-status-${order.payment_status.toLowerCase()}`}>
          {isPaymentStatus(order.payment_status) ? t(`adminOrders.status.${order.payment_status}`) : order.payment_status}
        </span>
        {waiting && (
          <span className="admin-order-waiting-badge" data-testid="am-waiting">
            {t('adminOrders.waitingApproval')}
          </span>
        )}
      </td>
      <td className="num admin-orders-nowrap">
        {formatBaht(order.paid_amount)} {common('baht')}
        <span className="admin-orders-block muted">{common('photos', { count: order.image_count })}</span>
      </td>
    </tr>
  );
}

type FiltersProps = { applied: OrderFilters; appliedKey: string; onApply: (filters: OrderFilters) => void };

function Filters({ applied, appliedKey, onApply }: FiltersProps) {
  const t = useDictionary(ordersMessages);
  const events = useAdminEvents().data?.events;
  const [draft, setDraft] = useState(applied);
  // The address changed (back button, paging, a link): the form shows what is applied.
  const [shown, setShown] = useState(appliedKey);
  if (shown !== appliedKey) {
    setShown(appliedKey);
    setDraft(applied);
  }

  // Choices apply at once; the mobile number waits for the search button (or Enter).
  const choose = (name: keyof OrderFilters, value: string) => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    onApply(next);
  };
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  const reset = () => {
    const empty = readFilters(new URLSearchParams());
    setDraft(empty);
    onApply(empty);
  };

  return (
    <form className="card admin-order-filters" onSubmit={submit} role="search" data-testid="orders-filters">
      <div className="field">
        <label htmlFor="orders-filter-event">{t('adminOrders.filter.event')}</label>
        <select
          id="orders-filter-event"
          data-testid="orders-filter-event"
          value={draft.event_key}
          onChange={(e) => choose('event_key', e.target.value)}
        >
          <option value="">{t('adminOrders.filter.allEvents')}</option>
          {/* A key from the address stays selectable even before the list arrives. */}
          {draft.event_key !== '' && !events?.some((ev) => ev.event_key === draft.event_key) && (
            <option value={draft.event_key}>{draft.event_key}</option>
          )}
          {events?.map((ev) => (
            <option key={ev.event_id} value={ev.event_key}>
              {ev.title} ({ev.event_key})
            </option>
          ))}
        </select>
      </div>
      <FilterSelect
        name="status"
        label={t('adminOrders.filter.status')}
        any={t('adminOrders.filter.any')}
        value={draft.status}
        options={PAYMENT_STATUSES.map((s) => [s, t(`adminOrders.status.${s}`)])}
        onChange={(v) => choose('status', v)}
      />
      <FilterSelect
        name="channel"
        label={t('adminOrders.filter.channel')}
        any={t('adminOrders.filter.any')}
        value={draft.channel}
        options={PAYMENT_CHANNELS.map((c) => [c, t(`adminOrders.channel.${c}`)])}
        onChange={(v) => choose('channel', v)}
      />
      <InputField
        id="orders-filter-mobile"
        label={t('adminOrders.filter.mobile')}
        data-testid="orders-filter-mobile"
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        value={draft.mobile}
        onChange={(e) => setDraft({ ...draft, mobile: e.target.value })}
      />
      <DateFilter name="from" label={t('adminOrders.filter.from')} value={draft.from} onChange={(v) => choose('from', v)} />
      <DateFilter name="to" label={t('adminOrders.filter.to')} value={draft.to} onChange={(v) => choose('to', v)} />
      <div className="row admin-order-filter-actions">
        <button type="submit" className="btn btn-primary" data-testid="orders-filter-apply">
          {t('adminOrders.filter.apply')}
        </button>
        <button type="button" className="btn btn-secondary" data-testid="orders-filter-reset" onClick={reset}>
          {t('adminOrders.filter.reset')}
        </button>
      </div>
    </form>
  );
}

/** One of the list's choice filters: "any", then each value with its label. */
function FilterSelect(props: {
  name: string;
  label: string;
  any: string;
  value: string;
  options: [string, string][];
  onChange: (value: string) => void;
}) {
  const id = `orders-filter-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} data-testid={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.any}</option>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One of the list's date filters (created from, created to). */
function DateFilter(props: { name: string; label: string; value: string; onChange: (value: string) => void }) {
  const id = `orders-filter-${props.name}`;
  return (
    <InputField
      id={id}
      label={props.label}
      data-testid={id}
      type="date"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}
