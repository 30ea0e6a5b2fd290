//! Dates of the home cards in the visitor's language: the server sends plain `YYYY-MM-DD`
//! event dates and `YYYY-MM-DD HH:MM` Bangkok sale starts, which read better localised
//! (Thai visitors expect the Buddhist-era year the `th-TH` locale gives).

import type { Language } from '@/i18n';

const locale = (lang: Language) => (lang === 'th' ? 'th-TH' : 'en-GB');

/** `2025-01-12` → `12 ม.ค. 2568` / `12 Jan 2025`; anything unparseable is shown as sent. */
export function formatEventDate(date: string, lang: Language): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat(locale(lang), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(d);
}

/** `2025-01-12 09:00` (Bangkok) → `12 ม.ค. 2568 09:00`; anything unparseable is shown as sent. */
export function formatSaleStart(text: string, lang: Language): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})/.exec(text);
  if (!m) return text;
  const d = new Date(`${m[1] ?? ''}T${m[2] ?? ''}:00+07:00`);
  if (Number.isNaN(d.getTime())) return text;
  return new Intl.DateTimeFormat(locale(lang), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'Asia/Bangkok',
  }).format(d);
}
