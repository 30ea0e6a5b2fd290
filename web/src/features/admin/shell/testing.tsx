//! What the console's tests share: operators, events and orders in the contract's full
//! types, the answers of a signed-out session and of no content, and rendering a page as an
//! operator (inside the operator context only, or inside the real console frame).

import type { ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import type { Language } from '@/i18n';
import { errorAnswer, renderWithProviders } from '@/test/render';
import { AdminLayout } from './AdminLayout';
import { OperatorProvider } from './operator';
import type { AdminEvent, AdminEventList, AdminOrderRow, Me } from './types';

export const adminMe: Me = { email: 'boss@raceshot.app', role: 'admin', event_ids: [] };
export const photographerMe: Me = { email: 'cam@raceshot.app', role: 'photographer', event_ids: [7] };

export const signedOut = errorAnswer(401, 'not_signed_in');
export const noContent = (): Response => new Response(null, { status: 204 });

/** One event on sale with every figure set, one closed and hidden with none. */
export const events: AdminEvent[] = [
  {
    event_id: 7,
    event_key: 'bkk-run-2026',
    title: 'Bangkok Night Run 2026',
    eventdate: '2026-03-01',
    on_sale_start: '2026-03-01T00:00:00+07:00',
    on_sale_end: '2099-04-01T00:00:00+07:00',
    sale_closed: false,
    visible: true,
    photos_ready: 1200,
    photos_pending: 35,
    photos_failed: 3,
    faces: 3400,
    model_pair: 'yunet-sface',
    model_pair_for_sale: true,
    moving_to: null,
    alerts: 5,
    searches: 812,
    orders_paid: 42,
    revenue: 12345.5,
  },
  {
    event_id: 8,
    event_key: 'cm-trail',
    title: 'Chiang Mai Trail',
    eventdate: '2025-11-20',
    on_sale_start: '2025-11-20T00:00:00+07:00',
    on_sale_end: '2025-12-20T00:00:00+07:00',
    sale_closed: true,
    visible: false,
    photos_ready: 300,
    photos_pending: 0,
    photos_failed: 0,
    faces: 600,
    model_pair: 'insightface',
    model_pair_for_sale: false,
    moving_to: 'yunet-sface',
    alerts: 0,
    searches: 0,
    orders_paid: 0,
    revenue: 0,
  },
];

/** `GET /api/admin/events`'s answer. */
export const eventList = (list: AdminEvent[] = events, queueDepth = 35): AdminEventList => ({
  events: list,
  queue_depth: queueDepth,
});

/** A line of `GET /api/admin/orders`: an AM order waiting, unless told otherwise. */
export const orderRow = (over: Partial<AdminOrderRow> = {}): AdminOrderRow => ({
  uuid: '11111111-aaaa-4bbb-8ccc-000000000001',
  event_key: 'bkk-run-2026',
  event_title: 'Bangkok Night Run 2026',
  mobile: '0812345678',
  email: 'runner@example.com',
  payment_status: 'INITIAL',
  payment_channel: 'AM',
  payment_gateway: 'SANDBOX',
  image_count: 42,
  paid_amount: 1039.5,
  receipt_ref: null,
  created_at: '2026-03-02T09:30:00+07:00',
  ...over,
});

/** The addresses (path and query) the fake fetch was called with, in order. */
export function requestedUrls(fn: { mock: { calls: unknown[][] } }): URL[] {
  return fn.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost'));
}

type Where = { path: string; route: string; routes?: RouteObject[]; lang?: Language };

/** A console page as the frame gives it: `me` signed in (admin unless told). */
export function renderAsOperator(page: ReactElement, { me = adminMe, ...where }: Where & { me?: Me }) {
  return renderWithProviders(<OperatorProvider me={me}>{page}</OperatorProvider>, where);
}

/** A console page inside the real frame (which asks `GET /api/admin/me` first), with a
 * stand-in sign-in page at `/admin/login`. The page answers at `path` (for its params), or
 * at every console address when none is given. */
export function renderInConsole(page: ReactElement, { path, route, routes = [], lang }: Omit<Where, 'path'> & { path?: string }) {
  const children: RouteObject[] =
    path === undefined || path === '/admin'
      ? [{ index: true, element: page }]
      : [{ path: path.replace(/^\/admin\//, ''), element: page }];
  if (path === undefined) children.push({ path: '*', element: page });
  return renderWithProviders(<p>unused</p>, {
    path: '/unused',
    route,
    lang,
    routes: [
      { path: '/admin/login', element: <p>sign-in page</p> },
      { path: '/admin', element: <AdminLayout />, children },
      ...routes,
    ],
  });
}
