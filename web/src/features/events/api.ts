//! The event pages' calls: the event of a key (or the one the server embedded in the page),
//! its highlight photos, the face search's two calls (sign an upload, search; one person or a
//! group), the bib search, finding one's race result, the manual search's pages of every photo, the events on sale (to
//! pick one to hide one's photos of) and the request to hide them. Events come as the app's
//! `ShopEvent` (`eventFromWire`), and go back on the wire in the search's body.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ApiFailure, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { eventFromWire, type ShopEvent } from '@/api/event';
import type { BibSearchResponse, ManualRequest, ManualResponse, PhotoBody } from '@/api/types';
import { preloadedAt, takePreloaded } from '@/lib/config';

type SignResponse = components['schemas']['SignResponse'];
type PrivacyRequestCreated = components['schemas']['PrivacyRequestCreated'];
export type Arrivals = components['schemas']['ArrivalsBody'];
export type RaceResult = components['schemas']['ResultBody'];
export type ResultsAnswer = components['schemas']['ResultsSearchResponse'];
export type CertificateOffer = components['schemas']['CertificateOffer'];

export const eventQueryKeys = {
  event: (eventKey: string) => ['event', eventKey] as const,
  highlight: (eventKey: string) => ['highlight', eventKey] as const,
  manual: (request: ManualRequest) => ['manual', request] as const,
  onSale: ['events', 'on-sale', 'all'] as const,
};

/** The event `raceshot serve` embedded in the page it served for this event's address, as
 * the query below would have it; only for the first page shown (see `takePreloaded`). */
function embeddedEvent(eventKey: string): ShopEvent | undefined {
  const answer = takePreloaded('event');
  if (answer === undefined) return undefined;
  if (answer.event_key === eventKey && answer.status === 'success') return eventFromWire(answer);
  return undefined;
}

/** The event of a key; an answer other than success fails as `event_not_found`. */
export async function fetchEvent(eventKey: string): Promise<ShopEvent> {
  const data = await unwrap(api.GET('/v1/events/{event_key}', { params: { path: { event_key: eventKey } } }));
  if (data.status !== 'success') throw new ApiFailure('event_not_found', 200, data.status);
  return eventFromWire(data);
}

export function useEventQuery(eventKey: string) {
  return useQuery({
    queryKey: eventQueryKeys.event(eventKey),
    queryFn: () => fetchEvent(eventKey),
    enabled: eventKey !== '',
    initialData: () => embeddedEvent(eventKey),
    initialDataUpdatedAt: preloadedAt,
  });
}

export async function fetchHighlight(eventKey: string): Promise<PhotoBody[]> {
  const data = await unwrap(api.POST('/v1/facesearch/highlight', { body: { event_key: eventKey } }));
  return data.body;
}

/** The sample photos shown before any search. */
export function useHighlight(eventKey: string, enabled: boolean) {
  return useQuery({
    queryKey: eventQueryKeys.highlight(eventKey),
    queryFn: () => fetchHighlight(eventKey),
    enabled,
  });
}

/** Signs the selfie's upload: where to PUT it, and the search it belongs to. */
export function signSelfie(event: ShopEvent, file: File): Promise<SignResponse> {
  return unwrap(
    api.POST('/v2/facesearch/sign', {
      body: { event_key: event.event_key, file_name: file.name, file_type: file.type },
    }),
  );
}

/** Whether a group search answers photos showing any of the people, or all of them together. */
export type GroupMatch = 'any' | 'all';

/** Searches the event's photos for the face of the uploaded selfie or, with `others` (the
 * friends' uploads, in the order of their chips), for a group of up to three people: each
 * photo found then says which of them it shows (`people`: 0 the first selfie, 1 the first
 * of `others`…). A single selfie's call carries neither `search_ids` nor `match`. */
export function searchFaces(event: ShopEvent, signed: SignResponse, others: SignResponse[] = [], match: GroupMatch = 'any') {
  return unwrap(
    api.POST('/v2/facesearch', {
      body: {
        search_id: signed.search_id,
        file_location: signed.file_location,
        event_id: event.event_id,
        event_key: event.event_key,
        face_threshold: event.face_threshold,
        mhao_price: event.dealPrice,
        max_face_search: event.max_face_search,
        ...(others.length > 0 ? { search_ids: others.map((o) => o.search_id), match } : {}),
      },
    }),
  );
}

/** How many of the event's photos became searchable after `since` (the `as_of` of an
 * earlier answer, the server's clock); without it, only the moment to ask from next. */
export function fetchArrivals(eventKey: string, since?: number): Promise<Arrivals> {
  return unwrap(
    api.GET('/api/events/{event_key}/arrivals', {
      params: { path: { event_key: eventKey }, query: since === undefined ? {} : { since } },
    }),
  );
}

/** The photos of the runner wearing a bib: where the number was read (`matched_by: bib`),
 * then where their face is (`matched_by: face`). A bib outside the event's rule fails as
 * 422 `invalid_bib`; an unknown one finds nothing. */
export function searchBib(eventKey: string, bib: string): Promise<BibSearchResponse> {
  return unwrap(api.POST('/v1/bibsearch', { body: { event_key: eventKey, bib } }));
}

/** The organiser's results rows of a runner, by a part of their name or their bib; a
 * query too short (or long) fails as 422 `invalid_field` on `q`. */
export function searchResults(eventKey: string, q: string): Promise<ResultsAnswer> {
  return unwrap(api.POST('/v1/results/search', { body: { event_key: eventKey, q } }));
}

export function fetchManual(request: ManualRequest): Promise<ManualResponse> {
  return unwrap(api.POST('/v1/manual', { body: request }));
}

/** One page of the event's photos in the order taken, as filtered; the page shown stays
 * while the next one loads. */
export function useManualPhotos(request: ManualRequest) {
  return useQuery({
    queryKey: eventQueryKeys.manual(request),
    queryFn: () => fetchManual(request),
    placeholderData: keepPreviousData,
  });
}

/** The most events one page of the catalogue answers. */
const CATALOGUE_PAGE_MAX = 100;

/** The events on sale (their photos shown), to choose the one to hide one's photos of. */
export function useEventsOnSale() {
  return useQuery({
    queryKey: eventQueryKeys.onSale,
    queryFn: async (): Promise<ShopEvent[]> =>
      (await unwrap(api.POST('/v1/events/pagination', { body: { page: 1, page_size: CATALOGUE_PAGE_MAX } }))).body.map(
        eventFromWire,
      ),
  });
}

export type HideRequest = { eventKey: string; contact: string; file: File };

/** Asks to hide the event's photos showing the selfie's face: a multipart form (the selfie
 * is embedded and deleted at once by the server). 409 `privacy_request_exists` when the
 * contact already has an open or approved request for the event. */
export function requestHiding({ eventKey, contact, file }: HideRequest): Promise<PrivacyRequestCreated> {
  const form = new FormData();
  form.set('event_key', eventKey);
  form.set('contact', contact);
  form.set('file', file, file.name);
  // The client sends a FormData as it is (the browser writes its boundary).
  return unwrap(api.POST('/api/privacy/requests', { body: {}, bodySerializer: () => form }));
}
