//! What a resumable upload's answers become: the photo a finished upload made, and
//! failures with the server's own codes (the protocol itself runs against the real server
//! in the browser suite).

import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { uploadedFrom, uploadFailure } from './resumable';

function answer(status: number, body: string): HttpResponse {
  return { getStatus: () => status, getHeader: () => undefined, getBody: () => body, getUnderlyingObject: () => null };
}

function refused(status: number, body: string): DetailedError {
  const e = new DetailedError('tus: unexpected response');
  e.originalRequest = {} as HttpRequest;
  e.originalResponse = answer(status, body);
  return e;
}

describe('resumable uploads', () => {
  it('reads the photo a finished upload became', () => {
    expect(uploadedFrom('42', 'queued')).toEqual({ photo_id: 42, result: 'queued' });
    expect(uploadedFrom('7', 'exists')).toEqual({ photo_id: 7, result: 'exists' });
    for (const [id, result] of [[undefined, 'queued'], ['x', 'queued'], ['0', 'queued'], ['5', 'maybe']] as const) {
      expect(uploadedFrom(id, result)).toBeNull();
    }
  });

  it("keeps the server's code, status and field; no answer is a network failure", () => {
    const body = JSON.stringify({ status: 'error', code: 'forbidden', message: 'not yours' });
    expect(uploadFailure(refused(403, body))).toMatchObject({ code: 'forbidden', status: 403, message: 'not yours' });
    expect(uploadFailure(refused(502, '<html>bad gateway</html>'))).toMatchObject({ code: 'internal', status: 502 });
    expect(uploadFailure(new Error('offline'))).toMatchObject({ code: 'network', status: 0 });
  });
});
