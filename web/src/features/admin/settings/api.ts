//! The settings page's calls, through the shared `api` client (typed by the generated
//! contract) and `unwrap`: read the settings, save changed keys, upload the shop's logo as
//! raw bytes.

import { api, unwrap } from '@/api/client';
import type { Changes, ImageKind, Settings } from './settingsModel';

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const settingsKey = ['admin', 'settings'] as const;

/** Where the logo is read; `version` makes the browser fetch it again after an upload. */
export function logoUrl(version: number | null): string {
  return version === null ? '/api/admin/settings/logo' : `/api/admin/settings/logo?v=${version}`;
}

export function fetchSettings(): Promise<Settings> {
  return unwrap(api.GET('/api/admin/settings'));
}

/** Saves only `changes`; answers the settings in force afterwards. A 422's `ApiFailure`
 * names every refused key. */
export function saveSettings(changes: Changes): Promise<Settings> {
  return unwrap(api.PUT('/api/admin/settings', { body: { changes } }));
}

/** `PUT /api/admin/settings/logo`: the contract gives the body as the file's bytes; they
 * go as raw octets (not JSON), with the type the page sniffed. Answered by 204. */
export async function uploadLogo(bytes: Uint8Array, type: ImageKind): Promise<void> {
  await unwrap(
    api
      .PUT('/api/admin/settings/logo', {
        body: Array.from(bytes),
        bodySerializer: (body) => new Uint8Array(body),
        headers: { 'Content-Type': type },
      })
      // `unwrap` wants data; a 204 has none.
      .then(({ error, response }) => (response.ok ? { data: true, response } : { error, response })),
  );
}

/** Sends a test message through `channel` to `to`; answers what became of it. */
export function sendTrial(channel: string, to: string) {
  return unwrap(api.POST('/api/admin/messages/trial', { body: { channel, to } }));
}
