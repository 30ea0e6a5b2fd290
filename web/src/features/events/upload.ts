//! PUT of the selfie to the signed address of `POST /v2/facesearch/sign`. XMLHttpRequest,
//! not fetch, because only it reports upload progress. The address is signed, so no token
//! is sent (it may be another host, such as S3).

import { ApiFailure, type ErrorCode } from '@/api/client';

export type Uploader = (url: string, file: File, onProgress: (percent: number) => void) => Promise<void>;

function failureOf(xhr: XMLHttpRequest): ApiFailure {
  let code: ErrorCode = 'internal';
  let message = xhr.statusText || `upload answered ${String(xhr.status)}`;
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    if (typeof body === 'object' && body !== null) {
      const o = body as Record<string, unknown>;
      if (typeof o.code === 'string') code = o.code as ErrorCode;
      if (typeof o.message === 'string') message = o.message;
    }
  } catch {
    // Not our server (S3 answers XML): the generic text will do.
  }
  if (code === 'internal' && xhr.status === 413) code = 'file_too_large';
  return new ApiFailure(code, xhr.status, message);
}

export const putWithProgress: Uploader = (url, file, onProgress) =>
  new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded * 100) / e.total)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else {
        reject(failureOf(xhr));
      }
    };
    xhr.onerror = () => reject(new ApiFailure('network', 0, 'upload failed'));
    xhr.onabort = () => reject(new ApiFailure('network', 0, 'upload aborted'));
    xhr.ontimeout = () => reject(new ApiFailure('timeout', 0, 'upload timed out'));
    xhr.send(file);
  });
