//! The console photos page's calls and server state: one page of an event's photos (asked
//! again while photos are still being ingested), a photo's flags and bibs, and deleting
//! one. Uploads go over the resumable-upload protocol (`resumable.ts`).

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components, operations } from '@/api/schema';
import { expectNoContent } from '../shell/api';
import { INGEST_POLL_MS } from './polling';

type Schemas = components['schemas'];

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

// Under `admin`, like every console query, so signing out drops them with the rest.
export const photoKeys = {
  event: (eventKey: string) => ['admin', 'photos', eventKey] as const,
  page: (eventKey: string, query: PhotoQuery) => ['admin', 'photos', eventKey, query] as const,
};

export function fetchPhotos(eventKey: string, query: PhotoQuery): Promise<AdminPhotoList> {
  return unwrap(api.GET('/api/admin/events/{event_key}/photos', { params: { path: { event_key: eventKey }, query } }));
}

export function changePhoto(photoId: number, flags: PhotoFlags): Promise<void> {
  return expectNoContent(api.POST('/api/admin/photos/{photo_id}', { params: { path: { photo_id: photoId } }, body: flags }));
}

/** Puts a bib on a photo (`present`, also restoring one taken off) or takes it off; an
 * operator's correction wins over reading. Refused with 422 `invalid_bib` when the number
 * does not fit the event's bib rule. */
export function setPhotoBib(photoId: number, correction: BibCorrection): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/photos/{photo_id}/bibs', { params: { path: { photo_id: photoId } }, body: correction }),
  );
}

/** Refused with 409 `photo_sold` when the photo is in an order (hide it instead). */
export function deletePhoto(photoId: number): Promise<void> {
  return expectNoContent(api.DELETE('/api/admin/photos/{photo_id}', { params: { path: { photo_id: photoId } } }));
}

export function useAdminPhotos(eventKey: string, shown: PhotoQuery) {
  return useQuery({
    queryKey: photoKeys.page(eventKey, shown),
    queryFn: () => fetchPhotos(eventKey, shown),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const counts = query.state.data?.counts;
      return counts && counts.queued + counts.processing > 0 ? INGEST_POLL_MS : false;
    },
  });
}
