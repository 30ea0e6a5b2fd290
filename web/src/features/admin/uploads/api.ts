//! Upload tokens' calls and types (from the generated contract): the list, making one (its
//! secret comes in that answer only) and revoking one.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { expectNoContent } from '../shell/api';

type Schemas = components['schemas'];

export type UploadToken = Schemas['UploadTokenBody'];
export type NewUploadToken = Schemas['NewUploadTokenResponse'];

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const uploadTokensKey = ['admin', 'upload-tokens'] as const;

/** The label's longest length (server side, `MAX_LABEL_CHARS` in services/uploads.rs). */
export const MAX_LABEL_CHARS = 60;

export async function fetchUploadTokens(): Promise<UploadToken[]> {
  const list = await unwrap(api.GET('/api/admin/upload-tokens'));
  return list.tokens;
}

/** Makes a token for the caller, or (admins) for the account of `accountEmail`. */
export function createUploadToken(label: string, accountEmail: string | null): Promise<NewUploadToken> {
  const body = accountEmail === null ? { label } : { label, account_email: accountEmail };
  return unwrap(api.POST('/api/admin/upload-tokens', { body }));
}

export function revokeUploadToken(id: number): Promise<void> {
  return expectNoContent(api.DELETE('/api/admin/upload-tokens/{id}', { params: { path: { id } } }));
}
