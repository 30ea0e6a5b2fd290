//! The orders pages' calls and server state: the list's filters (as the address and the
//! call carry them), the queries of the list (the console's shared call) and of one order,
//! and what an admin does to an order (approve, confirm a transfer, send its e-mail again).

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { adminKeys, expectNoContent, fetchOrders } from '../shell/api';
import type { OrderQuery } from '../shell/types';

type Schemas = components['schemas'];

export type AdminOrder = Schemas['AdminOrder'];
export type TrailEntry = Schemas['TrailEntry'];
export type OperatorOutcome = Schemas['OperatorOutcome'];

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const orderKey = (uuid: string) => ['admin', 'order', uuid] as const;

/** The list's filters as the form and the address hold them (empty when not set). */
export type OrderFilters = {
  event_key: string;
  status: string;
  channel: string;
  mobile: string;
  from: string;
  to: string;
};
export const FILTER_NAMES = ['event_key', 'status', 'channel', 'mobile', 'from', 'to'] as const;

/** Only the filters that are set go into the query. */
export function orderQuery(filters: OrderFilters, page: number): OrderQuery {
  const query: OrderQuery = {};
  for (const name of FILTER_NAMES) {
    const value = filters[name].trim();
    if (value !== '') query[name] = value;
  }
  query.page = page;
  return query;
}

export function fetchOrder(uuid: string): Promise<AdminOrder> {
  return unwrap(api.GET('/api/admin/orders/{order_uuid}', { params: { path: { order_uuid: uuid } } }));
}

export function approveOrder(uuid: string): Promise<OperatorOutcome> {
  return unwrap(api.POST('/api/admin/orders/{order_uuid}/approve', { params: { path: { order_uuid: uuid } } }));
}

export function confirmOrder(uuid: string, slipRef: string): Promise<OperatorOutcome> {
  return unwrap(
    api.POST('/api/admin/orders/{order_uuid}/confirm', {
      params: { path: { order_uuid: uuid } },
      body: { slip_ref: slipRef },
    }),
  );
}

export function resendEmail(uuid: string): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/orders/{order_uuid}/resend-email', { params: { path: { order_uuid: uuid } } }),
  );
}

export function useAdminOrders(query: OrderQuery) {
  return useQuery({
    queryKey: adminKeys.orderList(query),
    queryFn: () => fetchOrders(query),
    placeholderData: keepPreviousData,
  });
}

export function useAdminOrder(uuid: string) {
  return useQuery({ queryKey: orderKey(uuid), queryFn: () => fetchOrder(uuid) });
}
