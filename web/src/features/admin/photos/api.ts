//! The console photos page's server state: one page of an event's photos, asked again while
//! photos are still being ingested, over the console's calls (`../shell/api`).

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminKeys, fetchPhotos } from '../shell/api';
import type { PhotoQuery } from '../shell/types';
import { INGEST_POLL_MS } from './polling';

export function useAdminPhotos(eventKey: string, shown: PhotoQuery) {
  return useQuery({
    queryKey: adminKeys.photoPage(eventKey, shown),
    queryFn: () => fetchPhotos(eventKey, shown),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const counts = query.state.data?.counts;
      return counts && counts.queued + counts.processing > 0 ? INGEST_POLL_MS : false;
    },
  });
}
