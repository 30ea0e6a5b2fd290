//! The event form's model: what the inputs hold (text, so half-typed numbers survive), by
//! the app's names (`./api` turns them into the import format's and back), and the light
//! checks made before sending (the server judges everything else, though the bib rule's
//! limits are mirrored here so a typo is caught beside its input).

export const FLAG_FIELDS = [
  'deal',
  'wholesale',
  'wholesaleDeal',
  'manualSearch',
  'freeDownload',
  'freeForContact',
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
  'dealLabel',
  'dealPrice',
  'wholesaleDealPrice',
  'face_threshold',
  'max_face_search',
  'bib_min_digits',
  'bib_max_digits',
  'bib_prefix',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const TIER_LISTS = ['packages', 'wholesalePackages'] as const;
export type TierList = (typeof TIER_LISTS)[number];
export const TIER_COLUMNS = ['name', 'name_en', 'number_of_photo', 'price'] as const;
export type TierColumn = (typeof TIER_COLUMNS)[number];
export const BANNER_COLUMNS = ['image_url', 'link_url'] as const;
export type BannerColumn = (typeof BANNER_COLUMNS)[number];

export type TierRow = Record<TierColumn, string>;
export type BannerRow = Record<BannerColumn, string>;

export type EventForm = Record<TextField, string> &
  Record<FlagField, boolean> & Record<TierList, TierRow[]> & { banners: BannerRow[] };

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
    dealLabel: '',
    dealPrice: '',
    wholesaleDealPrice: '',
    face_threshold: '',
    max_face_search: '',
    bib_min_digits: String(BIB_DIGITS.defaultMin),
    bib_max_digits: String(BIB_DIGITS.defaultMax),
    bib_prefix: '',
    deal: false,
    wholesale: false,
    wholesaleDeal: false,
    manualSearch: false,
    freeDownload: false,
    freeForContact: false,
    pin: false,
    packages: [emptyTier('1')],
    wholesalePackages: [],
    banners: [],
  };
}

const REQUIRED: readonly TextField[] = ['event_key', 'title', 'eventdate', 'on_sale_start', 'on_sale_end'];
const DECIMALS: readonly TextField[] = ['dealPrice', 'wholesaleDealPrice', 'face_threshold'];
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
