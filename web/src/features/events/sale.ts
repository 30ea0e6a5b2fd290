//! What an event's sale flags mean for the page (spec §4), and its dates as Bangkok dates.

import type { EventBody } from '@/api/types';
import { isYes } from '@/api/types';
import type { Language } from '@/i18n';
import { SALE_WARNING_DAYS } from '@/lib/constants';

export type SaleState = 'open' | 'notStarted' | 'closed';

/** An operator may close a sale before it starts, so closing wins. */
export function saleState(event: Pick<EventBody, 'can_sale' | 'close_sale'>): SaleState {
  if (isYes(event.close_sale)) return 'closed';
  if (!isYes(event.can_sale)) return 'notStarted';
  return 'open';
}

/** Days left to show in the red warning, or null outside the spec's 1..10 window. */
export function saleWarningDays(dayDiff: number): number | null {
  return dayDiff >= SALE_WARNING_DAYS.from && dayDiff <= SALE_WARNING_DAYS.to ? dayDiff : null;
}

const LOCALES: Record<Language, string> = { th: 'th-TH', en: 'en-GB' };

/** An RFC 3339 instant as a Bangkok date and time; the raw text when unreadable. */
export function formatBangkokDateTime(value: string, lang: Language): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], {
    timeZone: 'Asia/Bangkok',
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(d);
}

/** A `YYYY-MM-DD` calendar date, read as a Bangkok day. */
export function formatBangkokDate(value: string, lang: Language): string {
  const d = new Date(`${value}T00:00:00+07:00`);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone: 'Asia/Bangkok', dateStyle: 'long' }).format(d);
}
