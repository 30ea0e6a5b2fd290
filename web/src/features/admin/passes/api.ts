//! Photo passes' console calls and types (from the generated contract): the event's batches,
//! and making a batch, answered once as the CSV file of its codes.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

export type PassBatch = components['schemas']['PassBatchBody'];
export type PassBatchInput = components['schemas']['PassBatchInput'];

/** The server's limits (`services::passes`, `domain::pass`). */
export const MAX_BATCH = 10_000;
export const MAX_PASS_PHOTOS = 500;
export const MAX_BATCH_NAME = 40;

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const passesKey = (eventKey: string) => ['admin', 'passes', eventKey] as const;

export function fetchPassBatches(eventKey: string): Promise<PassBatch[]> {
  return unwrap(api.GET('/api/admin/events/{event_key}/passes', { params: { path: { event_key: eventKey } } }));
}

/** Makes a batch; answers the file of its codes (the only copy) and its name. */
export async function makePassBatch(eventKey: string, input: PassBatchInput): Promise<{ csv: string; fileName: string }> {
  const answer = api.POST('/api/admin/events/{event_key}/passes', {
    params: { path: { event_key: eventKey } },
    body: input,
    parseAs: 'text',
  });
  const csv = await unwrap(answer);
  const { response } = await answer;
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `passes-${eventKey}.csv`;
  return { csv, fileName };
}
