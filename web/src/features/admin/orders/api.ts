//! The orders pages' server state: the list's filters (as the address and the call carry
//! them) and the queries of the list and of one order, over the console's calls.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminKeys, fetchOrder, fetchOrders } from '../shell/api';
import type { OrderQuery } from '../shell/types';

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

export function useAdminOrders(query: OrderQuery) {
  return useQuery({
    queryKey: adminKeys.orderList(query),
    queryFn: () => fetchOrders(query),
    placeholderData: keepPreviousData,
  });
}

export function useAdminOrder(uuid: string) {
  return useQuery({ queryKey: adminKeys.order(uuid), queryFn: () => fetchOrder(uuid) });
}
