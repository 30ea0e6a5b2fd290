//! The orders this device placed, kept in browser storage (`my_orders`), newest first: the
//! way back to an order's page when its link is lost. Find-order opens no order by a mobile
//! number or receipt alone (only with a one-time code sent to the order's own contact, and
//! not at all when the shop has no way to send one), so the device that placed an order is
//! the one place that may list its address.

import { useMemo } from 'react';
import { STORAGE_KEYS, parseJson, readJson, useStoredRaw, writeJson } from './storage';

/** An order as this device remembers it. `created` is an ISO 8601 instant. */
export type MyOrder = { uuid: string; event_key: string; title: string; created: string };

/** The most orders kept: a runner's season, not a shop's history. */
const MAX_KEPT = 30;

function isMyOrder(v: unknown): v is MyOrder {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.uuid === 'string' &&
    /^[0-9a-f-]{36}$/.test(o.uuid) &&
    typeof o.event_key === 'string' &&
    typeof o.title === 'string' &&
    typeof o.created === 'string'
  );
}

function isMyOrders(v: unknown): v is MyOrder[] {
  return Array.isArray(v) && v.every(isMyOrder);
}

export function readMyOrders(): MyOrder[] {
  return readJson(STORAGE_KEYS.myOrders, [], isMyOrders);
}

/** Keeps an order this device just placed (once, newest first). */
export function rememberOrder(order: MyOrder) {
  const kept = readMyOrders().filter((o) => o.uuid !== order.uuid);
  writeJson(STORAGE_KEYS.myOrders, [order, ...kept].slice(0, MAX_KEPT));
}

/** The orders this device placed, re-rendering when the list changes. */
export function useMyOrders(): MyOrder[] {
  const raw = useStoredRaw(STORAGE_KEYS.myOrders);
  return useMemo(() => parseJson(raw, [], isMyOrders), [raw]);
}
