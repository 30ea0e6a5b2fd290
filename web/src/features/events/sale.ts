//! What an event's sale flags mean for the page.

import type { ShopEvent } from '@/api/event';
import { SALE_WARNING_DAYS } from '@/lib/constants';

export type SaleState = 'open' | 'notStarted' | 'closed';

/** An operator may close a sale before it starts, so closing wins. */
export function saleState(event: Pick<ShopEvent, 'onSale' | 'saleClosed'>): SaleState {
  if (event.saleClosed) return 'closed';
  if (!event.onSale) return 'notStarted';
  return 'open';
}

/** Days left to show in the red warning, or null outside the window of 1..10 days. */
export function saleWarningDays(dayDiff: number): number | null {
  return dayDiff >= SALE_WARNING_DAYS.from && dayDiff <= SALE_WARNING_DAYS.to ? dayDiff : null;
}
