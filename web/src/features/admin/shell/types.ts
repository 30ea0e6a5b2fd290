//! Short names for the part of the API contract the whole console shares, as generated from
//! openapi.json into `schema.d.ts`: the signed-in operator, the events list and the orders
//! list. Each console feature names its own part of the contract in its own `api.ts`.

import type { components, operations } from '@/api/schema';

type Schemas = components['schemas'];

export type Me = Schemas['Me'];

export type AdminEvent = Schemas['AdminEvent'];
/** `GET /api/admin/events`: the events and the ingestion queue's depth. */
export type AdminEventList = Schemas['AdminEventList'];

export type AdminOrderRow = Schemas['AdminOrderRow'];
export type AdminOrderList = Schemas['AdminOrderList'];
/** The filters of `GET /api/admin/orders`. */
export type OrderQuery = NonNullable<operations['admin_orders_list']['parameters']['query']>;
