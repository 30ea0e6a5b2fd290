//! Console uploads over the shop's resumable-upload protocol (tus 1.0 at `/api/uploads`),
//! signed in by the console's session cookie. The file goes in parts of 8 MiB; a part cut
//! off by the network is tried again from wherever the server stands, and because
//! tus-js-client remembers each file's upload address in localStorage (by event, name,
//! size and date), a file chosen again after the page was reloaded resumes too.

import { DetailedError, Upload } from 'tus-js-client';
import { ApiFailure, type ErrorCode } from '@/api/client';
import type { Uploaded } from './api';

const CHUNK_BYTES = 8 * 1024 * 1024;
/** Pauses before the tries after a passing failure (network, server trouble). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];

type ErrorBody = { code?: ErrorCode; message?: string; field?: string | null };

/** A tus-js-client failure as the console's other calls fail: the server's code, or
 * `network` when no answer came. */
export function uploadFailure(e: Error): ApiFailure {
  const response = e instanceof DetailedError ? e.originalResponse : null;
  if (response === null) return new ApiFailure('network', 0, e.message);
  let body: ErrorBody = {};
  try {
    body = JSON.parse(response.getBody()) as ErrorBody;
  } catch {
    // Not the API's JSON (a proxy's page): the status alone tells.
  }
  return new ApiFailure(body.code ?? 'internal', response.getStatus(), body.message ?? e.message, body.field);
}

/** The photo a finished upload became, from the last answer's headers. */
export function uploadedFrom(photoId: string | undefined, result: string | undefined): Uploaded | null {
  const id = Number(photoId);
  if (!Number.isInteger(id) || id <= 0 || (result !== 'queued' && result !== 'exists')) return null;
  return { photo_id: id, result };
}

/** Sends one file to the event, resuming an earlier upload of the same file if one is
 * remembered; resolves with the photo it became. */
export function uploadResumably(
  eventKey: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: `${window.location.origin}/api/uploads`,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { event: eventKey, filename: file.name },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      // The same file sent to two events is two uploads.
      fingerprint: (f: File) => Promise.resolve(['raceshot', eventKey, f.name, f.size, f.lastModified].join(':')),
      onProgress: (sent, total) => {
        if (total > 0) onProgress(sent / total);
      },
      onSuccess: ({ lastResponse }) => {
        const done = uploadedFrom(
          lastResponse.getHeader('raceshot-photo-id'),
          lastResponse.getHeader('raceshot-photo-result'),
        );
        if (done === null) reject(new ApiFailure('internal', 502, 'unreadable answer'));
        else resolve(done);
      },
      onError: (e) => reject(uploadFailure(e)),
    });
    signal.addEventListener(
      'abort',
      () => {
        void upload.abort();
        reject(new ApiFailure('network', 0, 'aborted'));
      },
      { once: true },
    );
    void upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous[0];
        if (last !== undefined) upload.resumeFromPreviousUpload(last);
        upload.start();
      })
      .catch((e: unknown) => reject(uploadFailure(e instanceof Error ? e : new Error(String(e)))));
  });
}
