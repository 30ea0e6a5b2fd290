//! The console event pages' server state: the query of one event in the import format,
//! over the console's calls (`../shell/api`; the events list is `../shell/events`).

import { useQuery } from '@tanstack/react-query';
import { adminKeys, fetchImportEvent } from '../shell/api';

export function useImportEvent(eventKey: string) {
  return useQuery({ queryKey: adminKeys.event(eventKey), queryFn: () => fetchImportEvent(eventKey) });
}
