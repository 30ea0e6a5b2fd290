//! The console event pages' calls and server state: one event in the import format (read,
//! created or replaced) and closing a sale early. The events list is the console's shared
//! one (`../shell/events`).

import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { expectNoContent } from '../shell/api';

type Schemas = components['schemas'];

export type Written = Schemas['Written'];

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

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const eventKey = (key: string) => ['admin', 'event', key] as const;

/** One event in the import format, hidden ones and banners included (admins). The contract
 * gives the answer no fields, so the form reads and checks each one it uses. */
export function fetchImportEvent(eventKey: string): Promise<Record<string, unknown>> {
  return unwrap(api.GET('/api/admin/events/{event_key}', { params: { path: { event_key: eventKey } } }));
}

/** Creates or replaces an event (admins); a 422's `ApiFailure` names every bad field. */
export function putEvent(eventKey: string, event: ImportEvent): Promise<Written> {
  return unwrap(api.PUT('/api/admin/events/{event_key}', { params: { path: { event_key: eventKey } }, body: event }));
}

export function closeSale(eventKey: string, closed: boolean): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/events/{event_key}/close', { params: { path: { event_key: eventKey } }, body: { closed } }),
  );
}

export function useImportEvent(key: string) {
  return useQuery({ queryKey: eventKey(key), queryFn: () => fetchImportEvent(key) });
}
