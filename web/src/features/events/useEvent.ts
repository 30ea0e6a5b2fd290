//! The event of the current address, loaded once per key (or taken from the page when the
//! server embedded it; the query is in `api.ts`); any failure (unknown key, non-success
//! answer, network) sends the visitor to /404.

import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { ShopEvent } from '@/api/event';
import { useEventQuery } from './api';

/** The event of the address's `:eventKey`, or undefined while it loads. */
export function useAddressEvent(): ShopEvent | undefined {
  const { eventKey = '' } = useParams();
  return useEvent(eventKey).data;
}

export function useEvent(eventKey: string) {
  const navigate = useNavigate();
  const query = useEventQuery(eventKey);
  const failed = query.isError || eventKey === '';
  useEffect(() => {
    if (failed) void navigate('/404', { replace: true });
  }, [failed, navigate]);
  return query;
}
