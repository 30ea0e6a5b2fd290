//! The console's events list, shared: one query for every page (and the bell) that needs
//! it, and where an event's sale window stands now.

import { useQuery } from '@tanstack/react-query';
import { adminKeys, fetchAdminEvents } from './api';
import type { AdminEvent } from './types';

/** The operator's events and the ingestion queue's depth. */
export function useAdminEvents(options: { refetchInterval?: number } = {}) {
  return useQuery({ queryKey: adminKeys.events, queryFn: fetchAdminEvents, ...options });
}

export type SaleState = 'upcoming' | 'open' | 'ended';

/** Where the sale window stands at `now`; unreadable dates count as open (the server
 * decides). An operator's early close is `sale_closed`, shown apart. */
export function saleState(e: Pick<AdminEvent, 'on_sale_start' | 'on_sale_end'>, now: number): SaleState {
  const start = Date.parse(e.on_sale_start);
  const end = Date.parse(e.on_sale_end);
  if (!Number.isNaN(start) && now < start) return 'upcoming';
  if (!Number.isNaN(end) && now > end) return 'ended';
  return 'open';
}
