//! The event pages' calls: the event of a key (or the one the server embedded in the page),
//! its highlight photos, and the face search's two calls (sign an upload, search).

import { useQuery } from '@tanstack/react-query';
import { api, ApiFailure, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import type { EventBody, PhotoBody } from '@/api/types';
import { preloadedAt, takePreloaded } from '@/lib/config';

type SignResponse = components['schemas']['SignResponse'];

export const eventQueryKeys = {
  event: (eventKey: string) => ['event', eventKey] as const,
  highlight: (eventKey: string) => ['highlight', eventKey] as const,
};

/** The event `raceshot serve` embedded in the page it served for this event's address, as
 * the query below would have it; only for the first page shown (see `takePreloaded`). */
function embeddedEvent(eventKey: string): EventBody | undefined {
  const answer = takePreloaded('event');
  if (answer === undefined) return undefined;
  if (answer.event_key === eventKey && answer.status === 'success') return answer;
  return undefined;
}

/** The event of a key; an answer other than success fails as `event_not_found`. */
export async function fetchEvent(eventKey: string): Promise<EventBody> {
  const data = await unwrap(api.GET('/v1/events/{event_key}', { params: { path: { event_key: eventKey } } }));
  if (data.status !== 'success') throw new ApiFailure('event_not_found', 200, data.status);
  return data;
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
export function signSelfie(event: EventBody, file: File): Promise<SignResponse> {
  return unwrap(
    api.POST('/v2/facesearch/sign', {
      body: { event_key: event.event_key, file_name: file.name, file_type: file.type },
    }),
  );
}

/** Searches the event's photos for the face of the uploaded selfie. */
export function searchFaces(event: EventBody, signed: SignResponse) {
  return unwrap(
    api.POST('/v2/facesearch', {
      body: {
        search_id: signed.search_id,
        file_location: signed.file_location,
        event_id: event.event_id,
        event_key: event.event_key,
        face_threshold: event.face_threshold,
        mhao_price: event.mhao_price ?? null,
        max_face_search: event.max_face_search,
      },
    }),
  );
}
