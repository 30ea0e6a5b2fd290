//! The two carts (`cart` and `cart_wholesale`), the finisher certificate the standard cart
//! buys (`cart_certificate`), each cart's all-photos flag and price (`_event_can_mhao` /
//! `_mhao_price`, and `…_wholesale` for the wholesale cart) and the latest search results,
//! kept in browser storage. A photo is never in a cart twice, nor a certificate; prices are
//! never computed here, only asked of the server (`POST /api/cart/quote`).

import { useMemo } from 'react';
import type { ShopEvent } from '@/api/event';
import type { PhotoBody } from '@/api/types';
import { STORAGE_KEYS, parseJson, readJson, readRaw, useStoredRaw, writeJson, writeRaw } from './storage';

export type CartKind = 'standard' | 'wholesale';

/** A photo in a cart: the API's photo plus the key of its event and, when a search found
 * it, that search's `found_ref` (the all-photos deal covers only photos a search found). */
export type CartItem = PhotoBody & { event_key: string; found_ref?: string };

export type DealFlag = 'YES' | 'NO';

/** The latest search of an event (by selfie or by bib), so results survive a reload or a
 * trip to the cart. */
export type LatestSearch = {
  event_key: string;
  wholesale: boolean;
  images: PhotoBody[];
  avg_price: number;
  /** The bib number searched for; absent for a selfie's results. */
  bib?: string;
  /** How many people a group search looked for (2 or 3); absent for one person or a bib. */
  people?: number;
  /** The search's reference for the deal (`found_ref`); absent in searches kept before it. */
  found_ref?: string;
  /** The server's moment of the search (`as_of` of the arrivals call), to ask how many
   * photos became searchable since; absent when it was not known. */
  since?: number;
};

const cartKey = (kind: CartKind) =>
  kind === 'standard' ? STORAGE_KEYS.cart : STORAGE_KEYS.cartWholesale;

function isCartItem(v: unknown): v is CartItem {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.id === 'number' && typeof o.event_key === 'string';
}

function isCart(v: unknown): v is CartItem[] {
  return Array.isArray(v) && v.every(isCartItem);
}

export function readCart(kind: CartKind): CartItem[] {
  return readJson(cartKey(kind), [], isCart);
}

function writeCart(kind: CartKind, items: CartItem[]) {
  writeJson(cartKey(kind), items.map((i) => ({ ...i, atc: 'Y' })));
}

/** Adds photos not already in the cart; returns how many were new. */
export function addToCart(kind: CartKind, items: CartItem[]): number {
  const cart = readCart(kind);
  const have = new Set(cart.map((i) => i.id));
  const fresh: CartItem[] = [];
  for (const item of items) {
    if (!have.has(item.id)) {
      have.add(item.id);
      fresh.push(item);
    }
  }
  if (fresh.length > 0) writeCart(kind, [...cart, ...fresh]);
  return fresh.length;
}

export function removeFromCart(kind: CartKind, id: number) {
  writeCart(
    kind,
    readCart(kind).filter((i) => i.id !== id),
  );
}

/** Replaces the whole cart (buying the deal), without duplicates. */
export function replaceCart(kind: CartKind, items: CartItem[]) {
  writeRaw(cartKey(kind), null);
  addToCart(kind, items);
}

export function clearCart(kind: CartKind) {
  writeRaw(cartKey(kind), null);
}

/** The cart, re-rendering when it changes anywhere (this tab or another). */
export function useCart(kind: CartKind): CartItem[] {
  const raw = useStoredRaw(cartKey(kind));
  return useMemo(() => parseJson(raw, [], isCart), [raw]);
}

/** The finisher certificate the standard cart buys: one runner's (their bib) of one event,
 * found by the results search; `name` is the runner's, only to show. */
export type CartCertificate = { event_key: string; bib: string; name: string };

function isCartCertificate(v: unknown): v is CartCertificate {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.event_key === 'string' && o.event_key !== '' && typeof o.bib === 'string' && o.bib !== '' &&
    typeof o.name === 'string'
  );
}

const isStoredCertificate = (v: unknown): v is CartCertificate | null => isCartCertificate(v);

/** The certificate in the standard cart, or `null`. */
export function readCartCertificate(): CartCertificate | null {
  return readJson(STORAGE_KEYS.cartCertificate, null, isStoredCertificate);
}

/** Puts a certificate in the standard cart, in place of any other (a cart buys one). */
export function setCartCertificate(certificate: CartCertificate) {
  const { event_key, bib, name } = certificate;
  writeJson(STORAGE_KEYS.cartCertificate, { event_key, bib, name });
}

export function clearCartCertificate() {
  writeRaw(STORAGE_KEYS.cartCertificate, null);
}

/** The standard cart's certificate, re-rendering when it changes anywhere (this tab or another). */
export function useCartCertificate(): CartCertificate | null {
  const raw = useStoredRaw(STORAGE_KEYS.cartCertificate);
  return useMemo(() => parseJson(raw, null, isStoredCertificate), [raw]);
}

/** Whether the cart's certificate is this runner's of this event. */
export function isCertificateOf(
  certificate: CartCertificate | null,
  eventKey: string,
  bib: string,
): certificate is CartCertificate {
  return certificate !== null && certificate.event_key === eventKey && certificate.bib === bib;
}

/** Distinct events of the cart: its photos' and its certificate's; more than one hides the
 * order forms. */
export function cartEvents(items: CartItem[], certificate: CartCertificate | null = null): string[] {
  const keys = items.map((i) => i.event_key);
  if (certificate) keys.push(certificate.event_key);
  return [...new Set(keys)];
}

/** The deal is on offer in this cart: the standard deal, or the wholesale one in the wholesale cart. */
export function dealOffered(event: ShopEvent | undefined, kind: CartKind): boolean {
  if (!event) return false;
  return kind === 'wholesale' ? event.wholesaleDeal : event.deal;
}

/** The deal's price in this cart, if the event has one. */
export function dealPrice(event: ShopEvent, kind: CartKind): number | null {
  return kind === 'wholesale' ? event.wholesaleDealPrice : event.dealPrice;
}

const dealKeys = (kind: CartKind) =>
  kind === 'standard'
    ? { flag: STORAGE_KEYS.dealFlag, price: STORAGE_KEYS.dealPrice }
    : { flag: STORAGE_KEYS.dealFlagWholesale, price: STORAGE_KEYS.dealPriceWholesale };

/** The flag is stored as the bare `YES` / `NO`; earlier versions of the
 * shop stored it JSON-quoted (`"YES"`), which returning visitors may still have. */
function parseDealFlag(raw: string | null): DealFlag {
  return raw === 'YES' || raw === '"YES"' ? 'YES' : 'NO';
}

export function readDeal(kind: CartKind): DealFlag {
  return parseDealFlag(readRaw(dealKeys(kind).flag));
}

/** Sets a cart's flag; a given price is stored with it (a number as its digits, none removed). */
export function setDeal(kind: CartKind, flag: DealFlag, price?: number | null) {
  const keys = dealKeys(kind);
  writeRaw(keys.flag, flag);
  if (price !== undefined) writeRaw(keys.price, price === null ? null : String(price));
}

export function useDeal(kind: CartKind): DealFlag {
  return parseDealFlag(useStoredRaw(dealKeys(kind).flag));
}

function isLatestSearch(v: unknown): v is LatestSearch {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.event_key === 'string' && Array.isArray(o.images) && (o.bib === undefined || typeof o.bib === 'string') &&
    (o.people === undefined || typeof o.people === 'number') &&
    (o.found_ref === undefined || typeof o.found_ref === 'string') &&
    (o.since === undefined || typeof o.since === 'number')
  );
}

export function readLatestSearch(eventKey: string, wholesale: boolean): LatestSearch | null {
  const s = readJson<LatestSearch | null>(STORAGE_KEYS.latestSearch, null, (v): v is LatestSearch | null =>
    isLatestSearch(v),
  );
  return s && s.event_key === eventKey && s.wholesale === wholesale ? s : null;
}

export function writeLatestSearch(search: LatestSearch | null) {
  if (search === null) writeRaw(STORAGE_KEYS.latestSearch, null);
  else writeJson(STORAGE_KEYS.latestSearch, search);
}

export function toCartItem(photo: PhotoBody, eventKey: string, foundRef?: string | null): CartItem {
  return { ...photo, event_key: eventKey, atc: 'Y', ...(foundRef ? { found_ref: foundRef } : {}) };
}

/** The most search references a cart names (the server takes at most 8). */
const MAX_FOUND_REFS = 8;

/** The searches the cart's photos came from, each once, the latest last: what the deal may
 * cover. */
export function foundRefsOf(items: CartItem[]): string[] {
  const refs = [...new Set(items.map((i) => i.found_ref).filter((r): r is string => typeof r === 'string' && r !== ''))];
  return refs.slice(-MAX_FOUND_REFS);
}
