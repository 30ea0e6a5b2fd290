//! The two carts (`cart` and `cart_wholesale`), each cart's all-photos flag and
//! price (`_event_can_mhao` / `_mhao_price`, and `…_wholesale` for the wholesale cart) and the
//! latest search results, kept in browser storage. A photo is never in a cart twice; prices
//! are never computed here, only asked of the server (`POST /api/cart/quote`).

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

/** Distinct events the cart's photos come from; more than one hides the order forms. */
export function cartEvents(items: CartItem[]): string[] {
  return [...new Set(items.map((i) => i.event_key))];
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
