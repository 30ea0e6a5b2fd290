//! The console photos page's calls and server state: one page of an event's photos (asked
//! again while photos are still being ingested), a photo's flags and bibs, deleting one,
//! and the upload. The upload alone goes by XMLHttpRequest (for its progress), and its
//! answer still goes through `unwrap`.

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

const isUploaded = (v: unknown): v is Uploaded =>
  typeof v === 'object' &&
  v !== null &&
  'photo_id' in v &&
  typeof v.photo_id === 'number' &&
  'result' in v &&
  typeof v.result === 'string';

/** The XMLHttpRequest's answer in the shape `unwrap` reads, so an upload fails the same way
 * as every other call. A success that cannot be read counts as server trouble (502). */
function xhrAnswer(xhr: XMLHttpRequest): { data?: Uploaded; error?: unknown; response: Response } {
  const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // A proxy's HTML page or an empty body: the status alone says what happened.
  }
  if (xhr.status >= 200 && xhr.status < 300) {
    if (isUploaded(body)) return { data: body, response: new Response(null, { status: xhr.status }) };
    return { response: new Response(null, { status: 502, statusText: 'unreadable answer' }) };
  }
  return { error: body, response: new Response(null, { status: xhr.status, statusText: xhr.statusText }) };
}

/** `PUT /api/admin/events/{event_key}/photos`: the raw file as the body, sent with
 * XMLHttpRequest because (unlike `fetch`) it reports upload progress. */
export function uploadPhoto(
  eventKey: string,
  file: File,
  contentType: string,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<Uploaded> {
  const answer = new Promise<ReturnType<typeof xhrAnswer>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const path = `/api/admin/events/${encodeURIComponent(eventKey)}/photos?file_name=${encodeURIComponent(file.name)}`;
    xhr.open('PUT', `${window.location.origin}${path}`);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      // `Response` takes only HTTP statuses; anything else is no answer at all.
      if (xhr.status < 200 || xhr.status > 599) reject(new Error(`no answer (${xhr.status})`));
      else resolve(xhrAnswer(xhr));
    };
    xhr.onerror = () => reject(new Error('network error'));
    xhr.ontimeout = () => reject(new Error('timed out'));
    xhr.onabort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
  return unwrap(answer);
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
