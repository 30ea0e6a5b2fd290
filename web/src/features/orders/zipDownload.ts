//! Download-all of a paid order: the server's ZIP
//! is fetched as a stream, so the page can tell how far it got (a plain link showed nothing
//! while the server prepared a large ZIP), then handed to the browser as a file named
//! `{order}.zip`, `{order}-logo.zip` or `{order}-frame.zip`.

import { ApiFailure, type ErrorCode } from '@/api/client';
import { ZIP_IN_PAGE_MAX_BYTES } from '@/lib/constants';
import type { Variant } from './orderData';

/** Bytes received so far; `total` when the answer said its length (Content-Length). */
export type ZipProgress = { received: number; total: number | null };

/** The visitor left the page (or started again): the download stops quietly. */
export class ZipCancelled extends Error {
  constructor() {
    super('download cancelled');
    this.name = 'ZipCancelled';
  }
}

export const zipFileName = (uuid: string, variant: Variant) =>
  variant === 'original' ? `${uuid}.zip` : `${uuid}-${variant}.zip`;

/** An error answer as an `ApiFailure`: the server's code when it sent one (JSON), else by status. */
async function failureOf(response: Response): Promise<ApiFailure> {
  let code: ErrorCode = 'internal';
  let message = response.statusText || `download answered ${String(response.status)}`;
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null) {
      const o = body as Record<string, unknown>;
      if (typeof o.code === 'string') code = o.code as ErrorCode;
      if (typeof o.message === 'string') message = o.message;
    }
  } catch {
    // A proxy's HTML page: the status alone tells it failed.
  }
  return new ApiFailure(code, response.status, message);
}

const lost = (e: unknown) => new ApiFailure('network', 0, e instanceof Error ? e.message : String(e));

/**
 * Fetches the ZIP at `url`, reporting progress chunk by chunk. Fails with an `ApiFailure`
 * (`network` when the connection is lost, at the start or midway), or `ZipCancelled` once
 * `cancelled()` says so. Cancelling is polled rather than passed as an AbortSignal: stopping
 * the reader closes the connection just the same.
 */
export async function fetchZip(
  url: string,
  onProgress: (progress: ZipProgress) => void,
  cancelled: () => boolean,
): Promise<Blob | 'too-large'> {
  let response: Response;
  try {
    // Absolute, as the API client's addresses are: the page's origin serves the ZIP.
    response = await fetch(new URL(url, window.location.href));
  } catch (e) {
    throw lost(e);
  }
  if (cancelled()) {
    void response.body?.cancel().catch(() => undefined);
    throw new ZipCancelled();
  }
  if (!response.ok) throw await failureOf(response);

  const length = Number(response.headers.get('content-length') ?? '');
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const type = response.headers.get('content-type') || 'application/zip';
  // A ZIP larger than a phone should hold in memory goes to the browser's own download,
  // which writes to disk and shows its own progress.
  if (total !== null && total > ZIP_IN_PAGE_MAX_BYTES) {
    void response.body?.cancel().catch(() => undefined);
    return 'too-large';
  }
  onProgress({ received: 0, total });

  if (!response.body) {
    const blob = await response.blob().catch((e: unknown) => {
      throw lost(e);
    });
    onProgress({ received: blob.size, total });
    return blob;
  }

  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    if (cancelled()) {
      await reader.cancel().catch(() => undefined);
      throw new ZipCancelled();
    }
    let chunk: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
    try {
      chunk = await reader.read();
    } catch (e) {
      throw lost(e);
    }
    if (chunk.done) break;
    chunks.push(chunk.value);
    received += chunk.value.byteLength;
    if (received > ZIP_IN_PAGE_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    onProgress({ received, total });
  }
  return new Blob(chunks, { type });
}
