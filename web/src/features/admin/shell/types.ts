//! Short names for the console's part of the API contract, as generated from openapi.json
//! into `schema.d.ts`: every console folder takes its types from here, never writes its own.

import type { components, operations } from '@/api/schema';
import type { YesNo } from '@/api/types';

type Schemas = components['schemas'];

export type Me = Schemas['Me'];
export type FieldProblem = Schemas['FieldProblem'];

export type AdminEvent = Schemas['AdminEvent'];
/** `GET /api/admin/events`: the events and the ingestion queue's depth. */
export type AdminEventList = Schemas['AdminEventList'];
export type Written = Schemas['Written'];

/** `detail` is free-form JSON; the contract calls it an object without naming fields. */
export type AuditEntry = Schemas['AuditEntryBody'];

export type AdminOrderRow = Schemas['AdminOrderRow'];
export type AdminOrderList = Schemas['AdminOrderList'];
export type AdminOrder = Schemas['AdminOrder'];
export type TrailEntry = Schemas['TrailEntry'];
export type OperatorOutcome = Schemas['OperatorOutcome'];
/** The filters of `GET /api/admin/orders`. */
export type OrderQuery = NonNullable<operations['admin_orders_list']['parameters']['query']>;

export type AdminPhoto = Schemas['AdminPhoto'];
export type AdminPhotoList = Schemas['AdminPhotoList'];
export type PhotoCounts = Schemas['StateCounts'];
export type PhotoFlags = Schemas['PhotoFlags'];
/** The answer to one uploaded file. */
export type Uploaded = Schemas['Uploaded'];
/** The page and state filter of `GET /api/admin/events/{event_key}/photos`. */
export type PhotoQuery = NonNullable<operations['admin_photos_list']['parameters']['query']>;

export type ImportTier = { name: string; name_en: string; number_of_photo: number; price: number };
export type ImportBanner = { image_url: string; link_url: string };
/** An event in the import format of docs/event-import.md: the body of
 * `PUT /api/admin/events/{event_key}` and the answer of its GET. The contract describes both
 * only as "an object" (generated as `Record<string, never>`), so this one shape is written
 * out here, from the import format's documentation. */
export type ImportEvent = {
  event_key: string;
  title: string;
  coverurl: string;
  event_date_text: string;
  eventdate: string;
  province: string;
  on_sale_start: string;
  on_sale_end: string;
  is_hybrid: YesNo;
  is_mhao: YesNo;
  mhao_price: number | null;
  is_mhao_hybrid: YesNo;
  hybrid_mhao_price: number | null;
  is_event_stage: YesNo;
  is_free_download: YesNo;
  is_free_download_keep_contract: YesNo;
  caption_button_buy_all: string;
  face_threshold: number | null;
  max_face_search: number | null;
  pin: YesNo;
  package: ImportTier[];
  package_hb: ImportTier[];
  banners: ImportBanner[];
};
