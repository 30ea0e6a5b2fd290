//! Short names for the console's part of the API contract, as generated from openapi.json
//! into `schema.d.ts`: every console folder takes its types from here, never writes its own.

import type { components, operations } from '@/api/schema';

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

/** A request to hide one's photos of an event, with the photos it would hide or hides. */
export type AdminPrivacyRequest = Schemas['AdminPrivacyRequest'];
export type AdminPrivacyList = Schemas['AdminPrivacyList'];
export type PrivacyApproved = Schemas['PrivacyApproved'];

export type AdminPhoto = Schemas['AdminPhoto'];
export type AdminPhotoList = Schemas['AdminPhotoList'];
export type PhotoCounts = Schemas['StateCounts'];
export type PhotoFlags = Schemas['PhotoFlags'];
/** A bib on a photo: read (with its confidence), added by an operator, or taken off. */
export type AdminBib = Schemas['AdminBib'];
/** The body of `POST /api/admin/photos/{photo_id}/bibs`. */
export type BibCorrection = Schemas['BibCorrection'];
/** The answer to one uploaded file. */
export type Uploaded = Schemas['Uploaded'];
/** The page and state filter of `GET /api/admin/events/{event_key}/photos`. */
export type PhotoQuery = NonNullable<operations['admin_photos_list']['parameters']['query']>;

/** An event in the import format of docs/event-import.md: the body of
 * `PUT /api/admin/events/{event_key}` and the answer of its GET. The server answers every
 * field and the console's form sends every field, though the import format lets a file
 * leave some out. */
export type ImportEvent = Required<Omit<Schemas['ImportEvent'], 'package' | 'package_hb' | 'banners'>> & {
  package: ImportTier[];
  package_hb: ImportTier[];
  banners: ImportBanner[];
};
export type ImportTier = Required<Schemas['ImportPackage']>;
export type ImportBanner = Required<Schemas['ImportBanner']>;
