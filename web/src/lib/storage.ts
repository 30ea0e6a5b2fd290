//! Browser storage: every key the shop keeps in localStorage, read and written
//! through one place, with a subscription so every component showing a value stays in step
//! (including other tabs, through the `storage` event).

import { useSyncExternalStore } from 'react';

export const STORAGE_KEYS = {
  cart: 'cart',
  cartWholesale: 'cart_wholesale',
  // The finisher certificate the standard cart buys (one at most; the wholesale cart holds none).
  cartCertificate: 'cart_certificate',
  latestSearch: 'latest_search',
  // The all-photos flag and price: the original keys for the standard cart, and a pair of its
  // own for the wholesale cart, so a wholesale buy-all never changes the standard cart.
  dealFlag: '_event_can_mhao',
  dealPrice: '_mhao_price',
  dealFlagWholesale: '_event_can_mhao_wholesale',
  dealPriceWholesale: '_mhao_price_wholesale',
  language: 'currentLanguage',
  myOrders: 'my_orders',
  pinnedMenu: 'pinned_menu',
} as const;

export const consentKey = (eventKey: string) => `consent_${eventKey}`;

type Listener = () => void;
const listeners = new Map<string, Set<Listener>>();

function notify(key: string) {
  listeners.get(key)?.forEach((l) => l());
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null) listeners.forEach((_, k) => notify(k));
    else notify(e.key);
  });
}

export function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeRaw(key: string, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the page still works for this visit.
  }
  notify(key);
}

/** A JSON value, or `fallback` when absent or unreadable. */
export function readJson<T>(key: string, fallback: T, guard?: (v: unknown) => v is T): T {
  return parseJson(readRaw(key), fallback, guard);
}

/** A stored string's JSON value, or `fallback` when absent or unreadable. */
export function parseJson<T>(raw: string | null, fallback: T, guard?: (v: unknown) => v is T): T {
  if (raw === null) return fallback;
  try {
    const value: unknown = JSON.parse(raw);
    return guard && !guard(value) ? fallback : (value as T);
  } catch {
    return fallback;
  }
}

export function writeJson(key: string, value: unknown) {
  writeRaw(key, JSON.stringify(value));
}

export function subscribe(key: string, listener: Listener): () => void {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** The raw stored string of `key`, re-rendering when it changes. */
export function useStoredRaw(key: string): string | null {
  return useSyncExternalStore(
    (l) => subscribe(key, l),
    () => readRaw(key),
    () => null,
  );
}
