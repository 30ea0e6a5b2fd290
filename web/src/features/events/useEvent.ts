//! The event of the current address, loaded once per key (or taken from the page when the
//! server embedded it); any failure (unknown key, non-success answer, network) sends the
//! visitor to /404 as spec §4 says.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, ApiFailure, unwrap } from '@/api/client';
import type { EventBody, PhotoBody } from '@/api/types';
import { preloadedAt, takePreloaded } from '@/lib/config';

/** The event `raceshot serve` embedded in the page it served for this event's address, as
 * the query below would have it; only for the first page shown (see `takePreloaded`). */
function embeddedEvent(eventKey: string): EventBody | undefined {
  const answer = takePreloaded('event');
  if (answer === undefined) return undefined;
  if (answer.event_key === eventKey && answer.status === 'success') return answer;
  return undefined;
}

/** The event of the address's `:eventKey`, or undefined while it loads. */
export function useAddressEvent(): EventBody | undefined {
  const { eventKey = '' } = useParams();
  return useEvent(eventKey).data;
}

export function useEvent(eventKey: string) {
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: ['event', eventKey],
    queryFn: async (): Promise<EventBody> => {
      const data = await unwrap(api.GET('/v1/events/{event_key}', { params: { path: { event_key: eventKey } } }));
      if (data.status !== 'success') throw new ApiFailure('event_not_found', 200, data.status);
      return data;
    },
    enabled: eventKey !== '',
    initialData: () => embeddedEvent(eventKey),
    initialDataUpdatedAt: preloadedAt,
  });
  const failed = query.isError || eventKey === '';
  useEffect(() => {
    if (failed) void navigate('/404', { replace: true });
  }, [failed, navigate]);
  return query;
}

/** The sample photos shown before any search. */
export function useHighlight(eventKey: string, enabled: boolean) {
  return useQuery({
    queryKey: ['highlight', eventKey],
    queryFn: async (): Promise<PhotoBody[]> => {
      const data = await unwrap(api.POST('/v1/facesearch/highlight', { body: { event_key: eventKey } }));
      return data.body;
    },
    enabled,
  });
}
