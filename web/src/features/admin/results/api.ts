//! Race results' console calls and types (from the generated contract): the last import,
//! checking or importing a results file with the column chosen for each field, and deleting
//! one runner's row.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { expectNoContent } from '../shell/api';

type Schemas = components['schemas'];

export type ResultsChecked = Schemas['ResultsChecked'];
export type ResultsImport = Schemas['ResultsImport'];

/** The fields of a results row, in the order the page lists them; `bib` and `name` are
 * required. */
export const RESULT_FIELDS = ['bib', 'name', 'gender', 'category', 'distance', 'gun_time', 'chip_time', 'rank'] as const;
export type ResultField = (typeof RESULT_FIELDS)[number];
export type Columns = Partial<Record<ResultField, string>>;

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const resultsKey = (eventKey: string) => ['admin', 'results', eventKey] as const;

export function fetchResultsImport(eventKey: string): Promise<ResultsImport> {
  return unwrap(api.GET('/api/admin/events/{event_key}/results', { params: { path: { event_key: eventKey } } }));
}

/** Sends the file as CSV text: `check` only reads it (the answer lists its headers, the
 * columns used and every bad line); otherwise it replaces the event's results, or fails
 * as 422 naming each bad line. */
export function sendResults(eventKey: string, csv: string, columns: Columns, check: boolean): Promise<ResultsChecked> {
  return unwrap(
    api.PUT('/api/admin/events/{event_key}/results', {
      params: { path: { event_key: eventKey }, query: { ...columns, check } },
      body: csv,
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'text/csv; charset=utf-8' },
    }),
  );
}

export function deleteResult(eventKey: string, bib: string): Promise<void> {
  return expectNoContent(
    api.DELETE('/api/admin/events/{event_key}/results/{bib}', { params: { path: { event_key: eventKey, bib } } }),
  );
}
