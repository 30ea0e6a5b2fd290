//! The event form's model: what the inputs hold (text, so half-typed numbers survive), how
//! an event read in the import format fills it, the light checks made before sending (the
//! server judges everything else, though the bib rule's limits are mirrored here so a typo is
//! caught beside its input), and the import-format body it becomes.

import type { YesNo } from '@/api/types';
import type { ImportEvent, ImportTier } from './api';

export const FLAG_FIELDS = [
  'is_mhao',
  'is_hybrid',
  'is_mhao_hybrid',
  'is_event_stage',
  'is_free_download',
  'is_free_download_keep_contract',
  'pin',
] as const;
export type FlagField = (typeof FLAG_FIELDS)[number];

export const TEXT_FIELDS = [
  'event_key',
  'title',
  'coverurl',
  'event_date_text',
  'eventdate',
  'province',
  'on_sale_start',
  'on_sale_end',
  'caption_button_buy_all',
  'mhao_price',
  'hybrid_mhao_price',
  'face_threshold',
  'max_face_search',
  'bib_min_digits',
  'bib_max_digits',
  'bib_prefix',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const TIER_LISTS = ['package', 'package_hb'] as const;
export type TierList = (typeof TIER_LISTS)[number];
export const TIER_COLUMNS = ['name', 'name_en', 'number_of_photo', 'price'] as const;
export type TierColumn = (typeof TIER_COLUMNS)[number];
export const BANNER_COLUMNS = ['image_url', 'link_url'] as const;
export type BannerColumn = (typeof BANNER_COLUMNS)[number];

export type TierRow = Record<TierColumn, string>;
export type BannerRow = Record<BannerColumn, string>;

export type EventForm = Record<TextField, string> &
  Record<FlagField, boolean> & { package: TierRow[]; package_hb: TierRow[]; banners: BannerRow[] };

/** A problem found before sending: a text of this feature, by key. */
export type ClientProblem = {
  field: string;
  key: 'required' | 'number' | 'integer' | 'keyTaken' | 'bibDigits' | 'bibOrder' | 'bibPrefix';
};

/** The bib rule's limits, as the server holds them (`domain/bib.rs`): digits 1 to 8, by
 * default 1 to 6; the prefix is letters A–Z, one of which may lead the digits. */
export const BIB_DIGITS = { min: 1, max: 8, defaultMin: 1, defaultMax: 6 } as const;

export const emptyTier = (photos = ''): TierRow => ({ name: '', name_en: '', number_of_photo: photos, price: '' });
export const emptyBanner = (): BannerRow => ({ image_url: '', link_url: '' });

/** A new event starts with the 1-photo tier the import format requires. */
export function emptyForm(): EventForm {
  return {
    event_key: '',
    title: '',
    coverurl: '',
    event_date_text: '',
    eventdate: '',
    province: '',
    on_sale_start: '',
    on_sale_end: '',
    caption_button_buy_all: '',
    mhao_price: '',
    hybrid_mhao_price: '',
    face_threshold: '',
    max_face_search: '',
    bib_min_digits: String(BIB_DIGITS.defaultMin),
    bib_max_digits: String(BIB_DIGITS.defaultMax),
    bib_prefix: '',
    is_mhao: false,
    is_hybrid: false,
    is_mhao_hybrid: false,
    is_event_stage: false,
    is_free_download: false,
    is_free_download_keep_contract: false,
    pin: false,
    package: [emptyTier('1')],
    package_hb: [],
    banners: [],
  };
}

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
export function formFromImport(e: Record<string, unknown>): EventForm {
  return {
    event_key: text(e.event_key),
    title: text(e.title),
    coverurl: text(e.coverurl),
    event_date_text: text(e.event_date_text),
    eventdate: text(e.eventdate),
    province: text(e.province),
    on_sale_start: text(e.on_sale_start),
    on_sale_end: text(e.on_sale_end),
    caption_button_buy_all: text(e.caption_button_buy_all),
    mhao_price: text(e.mhao_price),
    hybrid_mhao_price: text(e.hybrid_mhao_price),
    face_threshold: text(e.face_threshold),
    max_face_search: text(e.max_face_search),
    bib_min_digits: text(e.bib_min_digits),
    bib_max_digits: text(e.bib_max_digits),
    bib_prefix: text(e.bib_prefix),
    is_mhao: flagOn(e.is_mhao),
    is_hybrid: flagOn(e.is_hybrid),
    is_mhao_hybrid: flagOn(e.is_mhao_hybrid),
    is_event_stage: flagOn(e.is_event_stage),
    is_free_download: flagOn(e.is_free_download),
    is_free_download_keep_contract: flagOn(e.is_free_download_keep_contract),
    pin: flagOn(e.pin),
    package: records(e.package).map(tierRow),
    package_hb: records(e.package_hb).map(tierRow),
    banners: records(e.banners).map((b) => ({ image_url: text(b.image_url), link_url: text(b.link_url) })),
  };
}

const REQUIRED: readonly TextField[] = ['event_key', 'title', 'eventdate', 'on_sale_start', 'on_sale_end'];
const DECIMALS: readonly TextField[] = ['mhao_price', 'hybrid_mhao_price', 'face_threshold'];
const INTEGERS: readonly TextField[] = ['max_face_search'];

function checkNumber(problems: ClientProblem[], field: string, text: string, integer: boolean, required: boolean) {
  const value = text.trim();
  if (value === '') {
    if (required) problems.push({ field, key: 'required' });
    return;
  }
  const n = Number(value);
  if (!Number.isFinite(n)) problems.push({ field, key: 'number' });
  else if (integer && !Number.isInteger(n)) problems.push({ field, key: 'integer' });
}

/** A digit count of the bib rule: empty (the default), or a whole number from 1 to 8. */
function bibDigits(problems: ClientProblem[], field: 'bib_min_digits' | 'bib_max_digits', value: string): number | null {
  const before = problems.length;
  checkNumber(problems, field, value, true, false);
  if (problems.length > before || value.trim() === '') return null;
  const n = Number(value.trim());
  if (n < BIB_DIGITS.min || n > BIB_DIGITS.max) {
    problems.push({ field, key: 'bibDigits' });
    return null;
  }
  return n;
}

/** The bib rule as the server checks it: each count 1–8, the fewest not above the most
 * (an empty one stands for its default), and a prefix of letters only. */
function checkBibRule(problems: ClientProblem[], form: EventForm) {
  const min = bibDigits(problems, 'bib_min_digits', form.bib_min_digits);
  const max = bibDigits(problems, 'bib_max_digits', form.bib_max_digits);
  const emptyMin = form.bib_min_digits.trim() === '';
  const emptyMax = form.bib_max_digits.trim() === '';
  if ((min !== null || emptyMin) && (max !== null || emptyMax)) {
    if ((min ?? BIB_DIGITS.defaultMin) > (max ?? BIB_DIGITS.defaultMax)) {
      problems.push({ field: 'bib_max_digits', key: 'bibOrder' });
    }
  }
  if (!/^[A-Za-z]*$/.test(form.bib_prefix.trim())) problems.push({ field: 'bib_prefix', key: 'bibPrefix' });
}

/** Only what must hold for the body to be built at all (required texts, numbers that are
 * numbers), the bib rule's limits, and a new key that would overwrite an existing event. */
export function checkForm(form: EventForm, takenKeys: readonly string[] = []): ClientProblem[] {
  const problems: ClientProblem[] = [];
  for (const field of REQUIRED) {
    if (form[field].trim() === '') problems.push({ field, key: 'required' });
  }
  if (takenKeys.includes(form.event_key.trim())) problems.push({ field: 'event_key', key: 'keyTaken' });
  for (const field of DECIMALS) checkNumber(problems, field, form[field], false, false);
  for (const field of INTEGERS) checkNumber(problems, field, form[field], true, false);
  checkBibRule(problems, form);
  for (const list of TIER_LISTS) {
    form[list].forEach((row, i) => {
      if (row.name.trim() === '') problems.push({ field: `${list}[${i}].name`, key: 'required' });
      checkNumber(problems, `${list}[${i}].number_of_photo`, row.number_of_photo, true, true);
      checkNumber(problems, `${list}[${i}].price`, row.price, false, true);
    });
  }
  form.banners.forEach((row, i) => {
    if (row.image_url.trim() === '') problems.push({ field: `banners[${i}].image_url`, key: 'required' });
  });
  return problems;
}

const flag = (on: boolean): YesNo => (on ? 'Y' : 'N');
const optionalNumber = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));
const tier = (row: TierRow): ImportTier => ({
  name: row.name.trim(),
  name_en: row.name_en.trim(),
  number_of_photo: Number(row.number_of_photo.trim()),
  price: Number(row.price.trim()),
});

/** The PUT body; call only once `checkForm` found nothing. Empty optional numbers are
 * sent as null, which the server reads as "use the default". */
export function toImportEvent(form: EventForm): ImportEvent {
  return {
    event_key: form.event_key.trim(),
    title: form.title.trim(),
    coverurl: form.coverurl.trim(),
    event_date_text: form.event_date_text.trim(),
    eventdate: form.eventdate.trim(),
    province: form.province.trim(),
    on_sale_start: form.on_sale_start.trim(),
    on_sale_end: form.on_sale_end.trim(),
    is_hybrid: flag(form.is_hybrid),
    is_mhao: flag(form.is_mhao),
    mhao_price: optionalNumber(form.mhao_price),
    is_mhao_hybrid: flag(form.is_mhao_hybrid),
    hybrid_mhao_price: optionalNumber(form.hybrid_mhao_price),
    is_event_stage: flag(form.is_event_stage),
    is_free_download: flag(form.is_free_download),
    is_free_download_keep_contract: flag(form.is_free_download_keep_contract),
    caption_button_buy_all: form.caption_button_buy_all.trim(),
    face_threshold: optionalNumber(form.face_threshold),
    max_face_search: optionalNumber(form.max_face_search),
    pin: flag(form.pin),
    bib_min_digits: optionalNumber(form.bib_min_digits),
    bib_max_digits: optionalNumber(form.bib_max_digits),
    bib_prefix: form.bib_prefix.trim().toUpperCase(),
    package: form.package.map(tier),
    package_hb: form.package_hb.map(tier),
    banners: form.banners.map((b) => ({ image_url: b.image_url.trim(), link_url: b.link_url.trim() })),
  };
}

/** `package[1].price` → `package-1-price`: the name in the input's test id and DOM id. */
export const pathName = (path: string): string => path.replace(/\[(\d+)\]/g, '-$1').replace(/\./g, '-');
