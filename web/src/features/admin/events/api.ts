//! The console event pages' calls and server state: one event in the import format (read,
//! created or replaced) and closing a sale early. The events list is the console's shared
//! one (`../shell/events`). The form holds an event by the app's names: `formFromWire` and
//! `formToWire` turn the import format into them and back, and the server's field paths in
//! a refused save come back in the form's names too.

import { useQuery } from '@tanstack/react-query';
import { api, ApiFailure, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { yesNo } from '@/api/types';
import { expectNoContent } from '../shell/api';
import type { EventForm, TierRow } from './eventForm';

type Schemas = components['schemas'];

export type Written = Schemas['Written'];

/** An event in the import format of docs/event-import.md: the body of
 * `PUT /api/admin/events/{event_key}` and the answer of its GET. The server answers every
 * field and the console's form sends every field, though the import format lets a file
 * leave some out. */
export type ImportEvent = Required<Omit<Schemas['ImportEvent'], 'package' | 'package_hb' | 'banners'>> & {
  package: ImportTier[];
  package_hb: ImportTier[];
  banners: ImportBanner[];
};
export type ImportTier = Required<Schemas['ImportPackage']>;
export type ImportBanner = Required<Schemas['ImportBanner']>;

/** The import format's name of each form field named otherwise. */
const WIRE_NAMES: Record<string, string> = {
  deal: 'is_mhao',
  dealPrice: 'mhao_price',
  dealLabel: 'caption_button_buy_all',
  wholesale: 'is_hybrid',
  wholesaleDeal: 'is_mhao_hybrid',
  wholesaleDealPrice: 'hybrid_mhao_price',
  manualSearch: 'is_event_stage',
  freeDownload: 'is_free_download',
  freeForContact: 'is_free_download_keep_contract',
  packages: 'package',
  wholesalePackages: 'package_hb',
};
const APP_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(WIRE_NAMES).map(([app, wire]) => [wire, app]),
);

const renameHead = (path: string, names: Record<string, string>): string =>
  path.replace(/^\w+/, (head) => names[head] ?? head);

/** A form field's path in the import format (`wholesalePackages[0].price` →
 * `package_hb[0].price`): what the inputs' ids and test ids are named by. */
export const pathToWire = (path: string): string => renameHead(path, WIRE_NAMES);
/** A field path of the server's in the form's names. */
const pathFromWire = (path: string): string => renameHead(path, APP_NAMES);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A text field; numbers (prices, thresholds) become their text, anything else empty. */
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
/** The server writes flags as `Y`/`N`; the import format also reads booleans and 1/0. */
const flagOn = (v: unknown): boolean => v === 'Y' || v === 'y' || v === true || v === 1;
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const tierRow = (p: Record<string, unknown>): TierRow => ({
  name: text(p.name),
  name_en: text(p.name_en),
  number_of_photo: text(p.number_of_photo),
  price: text(p.price),
});

/** An event as `GET /api/admin/events/{event_key}` gives it (the import format, banners
 * included), in the form's fields. The contract gives the answer no shape, so each field
 * is read for what it is; a missing or odd one starts empty and the server judges the save. */
export function formFromWire(e: Record<string, unknown>): EventForm {
  return {
    event_key: text(e.event_key),
    title: text(e.title),
    coverurl: text(e.coverurl),
    event_date_text: text(e.event_date_text),
    eventdate: text(e.eventdate),
    province: text(e.province),
    on_sale_start: text(e.on_sale_start),
    on_sale_end: text(e.on_sale_end),
    dealLabel: text(e.caption_button_buy_all),
    dealPrice: text(e.mhao_price),
    wholesaleDealPrice: text(e.hybrid_mhao_price),
    face_threshold: text(e.face_threshold),
    max_face_search: text(e.max_face_search),
    bib_min_digits: text(e.bib_min_digits),
    bib_max_digits: text(e.bib_max_digits),
    bib_prefix: text(e.bib_prefix),
    deal: flagOn(e.is_mhao),
    wholesale: flagOn(e.is_hybrid),
    wholesaleDeal: flagOn(e.is_mhao_hybrid),
    manualSearch: flagOn(e.is_event_stage),
    freeDownload: flagOn(e.is_free_download),
    freeForContact: flagOn(e.is_free_download_keep_contract),
    pin: flagOn(e.pin),
    packages: records(e.package).map(tierRow),
    wholesalePackages: records(e.package_hb).map(tierRow),
    banners: records(e.banners).map((b) => ({ image_url: text(b.image_url), link_url: text(b.link_url) })),
  };
}

const optionalNumber = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));
const tier = (row: TierRow): ImportTier => ({
  name: row.name.trim(),
  name_en: row.name_en.trim(),
  number_of_photo: Number(row.number_of_photo.trim()),
  price: Number(row.price.trim()),
});

/** The PUT body; call only once `checkForm` found nothing. Empty optional numbers are
 * sent as null, which the server reads as "use the default". */
export function formToWire(form: EventForm): ImportEvent {
  return {
    event_key: form.event_key.trim(),
    title: form.title.trim(),
    coverurl: form.coverurl.trim(),
    event_date_text: form.event_date_text.trim(),
    eventdate: form.eventdate.trim(),
    province: form.province.trim(),
    on_sale_start: form.on_sale_start.trim(),
    on_sale_end: form.on_sale_end.trim(),
    is_hybrid: yesNo(form.wholesale),
    is_mhao: yesNo(form.deal),
    mhao_price: optionalNumber(form.dealPrice),
    is_mhao_hybrid: yesNo(form.wholesaleDeal),
    hybrid_mhao_price: optionalNumber(form.wholesaleDealPrice),
    is_event_stage: yesNo(form.manualSearch),
    is_free_download: yesNo(form.freeDownload),
    is_free_download_keep_contract: yesNo(form.freeForContact),
    caption_button_buy_all: form.dealLabel.trim(),
    face_threshold: optionalNumber(form.face_threshold),
    max_face_search: optionalNumber(form.max_face_search),
    pin: yesNo(form.pin),
    bib_min_digits: optionalNumber(form.bib_min_digits),
    bib_max_digits: optionalNumber(form.bib_max_digits),
    bib_prefix: form.bib_prefix.trim().toUpperCase(),
    package: form.packages.map(tier),
    package_hb: form.wholesalePackages.map(tier),
    banners: form.banners.map((b) => ({ image_url: b.image_url.trim(), link_url: b.link_url.trim() })),
  };
}

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const eventKey = (key: string) => ['admin', 'event', key] as const;

/** One event in the import format, hidden ones and banners included (admins), in the form's
 * fields. The contract gives the answer no fields, so `formFromWire` reads each one. */
export async function fetchEventForm(key: string): Promise<EventForm> {
  const answer = await unwrap(api.GET('/api/admin/events/{event_key}', { params: { path: { event_key: key } } }));
  return formFromWire(answer);
}

/** Creates or replaces an event (admins); a 422's `ApiFailure` names every bad field, by the
 * form's names. */
export async function saveEvent(key: string, form: EventForm): Promise<Written> {
  try {
    return await unwrap(
      api.PUT('/api/admin/events/{event_key}', { params: { path: { event_key: key } }, body: formToWire(form) }),
    );
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
    const errors = e.errors.map((p) => ({ ...p, field: pathFromWire(p.field) }));
    throw new ApiFailure(e.code, e.status, e.message, e.field === null ? null : pathFromWire(e.field), errors);
  }
}

export function closeSale(key: string, closed: boolean): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/events/{event_key}/close', { params: { path: { event_key: key } }, body: { closed } }),
  );
}

export function useEventForm(key: string) {
  return useQuery({ queryKey: eventKey(key), queryFn: () => fetchEventForm(key) });
}
