//! The event of the current address, loaded once per key; any failure (unknown key,
//! non-success answer, network) sends the visitor to /404 as spec §4 says.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiFailure, unwrap } from '@/api/client';
import type { EventBody, PhotoBody } from '@/api/types';

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
