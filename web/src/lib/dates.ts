//! Dates as the shop shows them: always Bangkok time, in the visitor's language (Thai
//! visitors expect the Buddhist-era year that the `th-TH` locale gives).

import type { Language } from '@/i18n/define';

const LOCALES: Record<Language, string> = { th: 'th-TH', en: 'en-GB' };

/** An instant the server sent: RFC 3339, or `YYYY-MM-DD HH:MM[:SS]` meaning Bangkok time. */
function parseInstant(value: string): Date | null {
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(value);
  const d = local ? new Date(`${local[1] ?? ''}T${local[2] ?? ''}${local[3] ?? ':00'}+07:00`) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `2026-12-01T09:30:00+07:00` → `1 ธ.ค. 2569 09:30` / `1 Dec 2026, 09:30`; unreadable text as sent. */
export function formatBangkokDateTime(value: string, lang: Language): string {
  const d = parseInstant(value);
  if (!d) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], {
    timeZone: 'Asia/Bangkok',
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(d);
}

/** A `YYYY-MM-DD` calendar day → `1 ธ.ค. 2569` / `1 Dec 2026`; unreadable text as sent. */
export function formatBangkokDate(value: string, lang: Language): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const d = new Date(`${value}T12:00:00+07:00`);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone: 'Asia/Bangkok', dateStyle: 'medium' }).format(d);
}

/** An instant as the server sent it → its day in Bangkok, `1 ธ.ค. 2569` / `1 Dec 2026` (an
 * end that only its day matters for); unreadable text as sent. */
export function formatBangkokDayOf(value: string, lang: Language): string {
  const d = parseInstant(value);
  if (!d) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone: 'Asia/Bangkok', dateStyle: 'medium' }).format(d);
}

/** An instant (a `Date`, or as the server sent it) → its Bangkok clock time, `09:30`. */
export function formatBangkokTime(value: string | Date, lang: Language): string {
  const d = typeof value === 'string' ? parseInstant(value) : value;
  if (!d) return String(value);
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone: 'Asia/Bangkok', timeStyle: 'short' }).format(d);
}
