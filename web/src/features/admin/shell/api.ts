//! The console's shared calls: the shared `api` client (typed by the generated contract) and
//! `unwrap`, which gives the answer's data or throws an `ApiFailure` with the server's code,
//! plus `expectNoContent` for the calls answered by 204. Only what the frame itself needs and
//! every page shares lives here: who is signed in, signing out, the events list and the
//! orders list (the header's bell shows both). Each console feature keeps its own calls in
//! its own `api.ts`. Query keys all start with `admin`, so a sign-out can drop every one.

import { api, unwrap } from '@/api/client';
import type { AdminEventList, AdminOrderList, Me, OrderQuery } from './types';

export const adminKeys = {
  all: ['admin'] as const,
  me: ['admin', 'me'] as const,
  events: ['admin', 'events'] as const,
  // Every list of orders (the orders page's, the bell's) is under `orders`: an approval
  // refreshes them all.
  orders: ['admin', 'orders'] as const,
  orderList: (query: OrderQuery) => ['admin', 'orders', query] as const,
};

type Answer = { data?: unknown; error?: unknown; response: Response };

/** For calls answered by 204: `unwrap`'s checks, with no data to return. */
export async function expectNoContent(call: Promise<Answer>): Promise<void> {
  await unwrap(call.then(({ error, response }) => (response.ok ? { data: null, response } : { error, response })));
}

export function fetchMe(): Promise<Me> {
  return unwrap(api.GET('/api/admin/me'));
}

export async function signOut(): Promise<void> {
  // A failed sign-out still ends on the sign-in page; the server's session expires by itself.
  await expectNoContent(api.POST('/api/admin/logout')).catch(() => undefined);
}

export function fetchAdminEvents(): Promise<AdminEventList> {
  return unwrap(api.GET('/api/admin/events'));
}

export function fetchOrders(query: OrderQuery): Promise<AdminOrderList> {
  return unwrap(api.GET('/api/admin/orders', { params: { query } }));
}
