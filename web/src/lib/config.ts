//! What the page learns from the server that served it, written into index.html by
//! `raceshot serve`: the client token every API call carries, the base address
//! of previews and thumbnails (a CDN in production), and the
//! API answers the first page asks for, embedded so that a phone on a slow network paints
//! that page without waiting for another round trip.

import type { components } from '@/api/schema';

const TOKEN_PLACEHOLDER = '__RACESHOT_CLIENT_TOKEN__';
const MEDIA_PLACEHOLDER = '__RACESHOT_MEDIA_BASE__';
/** The `<script type="application/json">` in index.html that carries the embedded answers. */
const PRELOAD_ID = 'raceshot-preload';

/** The development server's token when the page was not served by `raceshot serve`. */
const DEV_TOKEN = 'demo-client-token';
/** Where the development server (and `raceshot serve` by default) serves media. */
const DEV_MEDIA_BASE = '/media';

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';
}

export function clientToken(): string {
  const value = meta('raceshot-client-token');
  return value === '' || value === TOKEN_PLACEHOLDER ? DEV_TOKEN : value;
}

/** The media base address without a trailing slash, so callers append `/{event_key}/…`. */
export function mediaBase(): string {
  const value = meta('raceshot-media-base');
  if (value === '' || value === MEDIA_PLACEHOLDER) return DEV_MEDIA_BASE;
  // The server writes it without one; a hand-edited page may not.
  return value.replace(/\/+$/, '');
}

type Schemas = components['schemas'];

/** The answers `raceshot serve` embedded for the address it served, each exactly as the API
 * gives it: for `/`, `GET /v1/events/slider-banner` (banners), `GET /v1/events/soon`,
 * `POST /v1/events/pagination` for the first page of `HOME_PAGE_SIZE` (events) and
 * `POST /v1/events/pagination-count` of the events on sale (count); for an event's
 * addresses, `GET /v1/events/{event_key}` (event). */
export type Preloaded = {
  banners?: Schemas['ListBody_BannerBody'];
  soon?: Schemas['ListBody_EventBody'];
  events?: Schemas['ListBody_EventBody'];
  count?: Schemas['ListBody_EventCount'];
  event?: Schemas['EventResponse'];
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list answer whose items carry what the pages read from them. */
function isList<T>(v: unknown, item: (i: unknown) => i is T): v is { status: string; body: T[] } {
  return isRecord(v) && typeof v.status === 'string' && Array.isArray(v.body) && v.body.every(item);
}

const isBanner = (v: unknown): v is Schemas['BannerBody'] =>
  isRecord(v) && typeof v.image_url === 'string' && typeof v.link_url === 'string';

function isEvent(v: unknown): v is Schemas['EventBody'] {
  return (
    isRecord(v) &&
    typeof v.event_id === 'number' &&
    typeof v.event_key === 'string' &&
    typeof v.title === 'string' &&
    typeof v.coverurl === 'string' &&
    typeof v.eventdate === 'string' &&
    Array.isArray(v.package) &&
    Array.isArray(v.package_hb)
  );
}

const isEventAnswer = (v: unknown): v is Schemas['EventResponse'] =>
  isEvent(v) && typeof (v as Record<string, unknown>).status === 'string';

const isCount = (v: unknown): v is Schemas['EventCount'] => isRecord(v) && typeof v.event_count === 'number';

/** The embedded answers of `doc`, each kept only when it has the shape of its API answer.
 * Nothing when the server wrote none, or left the placeholder (the development server). */
export function readPreload(doc: Document = document): Preloaded {
  const text = doc.getElementById(PRELOAD_ID)?.textContent ?? '';
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(raw)) return {};
  const found: Preloaded = {};
  if (isList(raw.banners, isBanner)) found.banners = raw.banners;
  if (isList(raw.soon, isEvent)) found.soon = raw.soon;
  if (isList(raw.events, isEvent)) found.events = raw.events;
  if (isList(raw.count, isCount)) found.count = raw.count;
  if (isEventAnswer(raw.event)) found.event = raw.event;
  return found;
}

let preload: Preloaded | undefined;
// The embedded answers are as old as the page: their age counts from when the app started,
// not from when a query first asks for them.
const appStartedAt = Date.now();
const taken = new Set<keyof Preloaded>();

/** Reads the embedded answers once, on first use. */
function preloaded(): Preloaded {
  preload ??= readPreload();
  return preload;
}

/** One embedded answer, handed out once: it describes the page the server served, so only
 * the first query that asks for it (on the first page shown) gets it; a later page, a
 * refetch or a query rebuilt after garbage collection goes to the network as before. */
export function takePreloaded<K extends keyof Preloaded>(key: K): Preloaded[K] {
  if (taken.has(key)) return undefined;
  taken.add(key);
  return preloaded()[key];
}

/** When the embedded answers were read (TanStack Query's `initialDataUpdatedAt`), so that
 * they count as fresh for the usual `staleTime` from the moment the page started. */
export function preloadedAt(): number {
  return appStartedAt;
}

