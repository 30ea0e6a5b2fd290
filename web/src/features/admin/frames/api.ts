//! Sponsor frames' console calls and types (from the generated contract): the event's
//! frame, uploading one as the file's raw bytes (a PNG or an SVG), choosing whether sold
//! photos get a framed copy, and taking the frame off.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

export type Frame = components['schemas']['FrameBody'];
export type FrameInput = components['schemas']['FrameInput'];

/** The server's limit (`api::admin::frames`): larger uploads are refused unread. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** The two kinds of file a frame is uploaded as. */
export type FrameKind = 'image/png' | 'image/svg+xml';

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const frameKey = (eventKey: string) => ['admin', 'frame', eventKey] as const;

/** What a chosen file is sent as: by its type, or by its name's ending (some systems give
 * an SVG file another type, or none); null for anything else. */
export function frameKind(file: File): FrameKind | null {
  const name = file.name.toLowerCase();
  if (file.type === 'image/svg+xml' || name.endsWith('.svg')) return 'image/svg+xml';
  if (file.type === 'image/png' || (file.type === '' && name.endsWith('.png'))) return 'image/png';
  return null;
}

export function fetchFrame(eventKey: string): Promise<Frame> {
  return unwrap(api.GET('/api/admin/events/{event_key}/frame', { params: { path: { event_key: eventKey } } }));
}

/** `PUT /api/admin/events/{event_key}/frame`: the file's bytes go as they are (not JSON),
 * with the type chosen by the page. Answers the event's frame as kept. */
export function uploadFrame(eventKey: string, bytes: Uint8Array, kind: FrameKind): Promise<Frame> {
  return unwrap(
    api.PUT('/api/admin/events/{event_key}/frame', {
      params: { path: { event_key: eventKey } },
      // The contract types the body as the bytes' list; the serializer sends the bytes
      // themselves, without first copying up to 8 MB into an array of numbers.
      body: [],
      bodySerializer: () => bytes,
      headers: { 'Content-Type': kind },
    }),
  );
}

export function saveFrameSettings(eventKey: string, input: FrameInput): Promise<Frame> {
  return unwrap(
    api.PUT('/api/admin/events/{event_key}/frame/settings', {
      params: { path: { event_key: eventKey } },
      body: input,
    }),
  );
}

/** Takes the frame off (answered by 204). */
export async function removeFrame(eventKey: string): Promise<void> {
  await unwrap(
    api
      .DELETE('/api/admin/events/{event_key}/frame', { params: { path: { event_key: eventKey } } })
      // `unwrap` wants data; a 204 has none.
      .then(({ error, response }) => (response.ok ? { data: true, response } : { error, response })),
  );
}
