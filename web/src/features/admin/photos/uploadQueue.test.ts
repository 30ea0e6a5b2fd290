//! The upload queue's rules with a stand-in uploader. The real uploader (resumable
//! uploads) runs against the real server in the browser suite.

import { ApiFailure } from '@/api/client';
import type { Uploaded } from './api';
import { UploadQueue, type Uploader } from './uploadQueue';

type Pending = {
  file: File;
  progress: (fraction: number) => void;
  resolve: (a: Uploaded) => void;
  reject: (e: Error) => void;
};

/** An uploader whose calls wait until the test answers them. */
function manualUploader() {
  const pending: Pending[] = [];
  const sent: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const upload: Uploader = (file, progress) => {
    sent.push(file.name);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise<Uploaded>((resolve, reject) => {
      pending.push({
        file,
        progress,
        resolve: (a) => {
          inFlight--;
          resolve(a);
        },
        reject: (e) => {
          inFlight--;
          reject(e);
        },
      });
    });
  };
  const take = (name: string) => {
    const i = pending.findIndex((p) => p.file.name === name);
    if (i < 0) throw new Error(`${name} is not on the wire`);
    return pending.splice(i, 1)[0]!;
  };
  return { upload, pending, sent, take, maxInFlight: () => maxInFlight };
}

const jpeg = (name: string) => new File(['x'], name, { type: 'image/jpeg' });
const flush = () => new Promise((r) => setTimeout(r, 0));
const states = (q: UploadQueue) => Object.fromEntries(q.snapshot().map((i) => [i.file.name, i.state]));

describe('UploadQueue', () => {
  it('keeps at most three files on the wire and sends the rest as others finish', async () => {
    const u = manualUploader();
    const q = new UploadQueue({ upload: u.upload });
    q.add(['1', '2', '3', '4', '5', '6', '7'].map((n) => jpeg(`${n}.jpg`)));
    expect(u.sent).toEqual(['1.jpg', '2.jpg', '3.jpg']);
    expect(q.summary()).toEqual({ done: 0, failed: 0, left: 7, total: 7 });

    u.take('2.jpg').resolve({ photo_id: 2, result: 'queued' });
    await flush();
    expect(u.sent).toEqual(['1.jpg', '2.jpg', '3.jpg', '4.jpg']);

    while (u.pending.length > 0) {
      u.pending.shift()!.resolve({ photo_id: 0, result: 'exists' });
      await flush();
    }
    expect(u.sent).toHaveLength(7);
    expect(u.maxInFlight()).toBe(3);
    expect(q.summary()).toEqual({ done: 7, failed: 0, left: 0, total: 7 });
    expect(q.snapshot().find((i) => i.file.name === '2.jpg')?.result).toBe('queued');
  });

  it('reports progress as a whole percentage while sending', async () => {
    const u = manualUploader();
    const q = new UploadQueue({ upload: u.upload });
    q.add([jpeg('a.jpg')]);
    u.pending[0]!.progress(0.425);
    expect(q.snapshot()[0]).toMatchObject({ state: 'uploading', percent: 42 });
    u.take('a.jpg').resolve({ photo_id: 1, result: 'queued' });
    await flush();
    expect(q.snapshot()[0]).toMatchObject({ state: 'done', percent: 100 });
  });

  it('retries only the files that failed for a passing reason, never finished ones', async () => {
    const u = manualUploader();
    const idle = vi.fn();
    const q = new UploadQueue({ upload: u.upload, onIdle: idle });
    q.add([jpeg('ok.jpg'), jpeg('offline.jpg'), jpeg('server.jpg')]);
    u.take('ok.jpg').resolve({ photo_id: 1, result: 'queued' });
    u.take('offline.jpg').reject(new ApiFailure('network', 0, 'network error'));
    u.take('server.jpg').reject(new ApiFailure('unavailable', 503, 'down'));
    await flush();
    expect(states(q)).toEqual({ 'ok.jpg': 'done', 'offline.jpg': 'failed', 'server.jpg': 'failed' });
    expect(q.snapshot().every((i) => i.state !== 'failed' || i.retryable)).toBe(true);
    expect(idle).toHaveBeenCalledTimes(1);

    u.sent.length = 0;
    expect(q.retryFailed()).toBe(2);
    expect(u.sent.sort()).toEqual(['offline.jpg', 'server.jpg']);
    u.take('offline.jpg').resolve({ photo_id: 2, result: 'queued' });
    u.take('server.jpg').resolve({ photo_id: 3, result: 'exists' });
    await flush();
    expect(q.summary()).toEqual({ done: 3, failed: 0, left: 0, total: 3 });
    expect(idle).toHaveBeenCalledTimes(2);
  });

  it('treats a 4xx answer as final', async () => {
    const u = manualUploader();
    const q = new UploadQueue({ upload: u.upload });
    q.add([jpeg('fake.jpg'), jpeg('huge.jpg')]);
    u.take('fake.jpg').reject(new ApiFailure('unsupported_image_type', 415, 'no'));
    u.take('huge.jpg').reject(new ApiFailure('payload_too_large', 413, 'no'));
    await flush();
    expect(q.snapshot().map((i) => [i.state, i.retryable, i.error?.code])).toEqual([
      ['failed', false, 'unsupported_image_type'],
      ['failed', false, 'payload_too_large'],
    ]);
    expect(q.retryFailed()).toBe(0);
    expect(u.sent).toEqual(['fake.jpg', 'huge.jpg']);
  });

  it('refuses a file that is not a JPEG or PNG without sending it', () => {
    const upload = vi.fn<Uploader>();
    const q = new UploadQueue({ upload });
    q.add([new File(['hello'], 'notes.txt', { type: 'text/plain' })]);
    expect(upload).not.toHaveBeenCalled();
    expect(q.snapshot()[0]).toMatchObject({ state: 'failed', retryable: false });
    expect(q.snapshot()[0]!.error?.code).toBe('unsupported_image_type');
    expect(q.retryFailed()).toBe(0);
    expect(upload).not.toHaveBeenCalled();
  });

  it('takes a typeless file by its name', () => {
    const upload = vi.fn<Uploader>(() => new Promise<Uploaded>(() => undefined));
    const q = new UploadQueue({ upload });
    q.add([new File(['x'], 'IMG_1.JPG'), new File(['x'], 'scan.png'), new File(['x'], 'raw.cr2')]);
    expect(upload.mock.calls.map((c) => c[0].name)).toEqual(['IMG_1.JPG', 'scan.png']);
  });

  it('says when the session ended', async () => {
    const u = manualUploader();
    const signedOut = vi.fn();
    const q = new UploadQueue({ upload: u.upload, onSignedOut: signedOut });
    q.add([jpeg('a.jpg')]);
    u.take('a.jpg').reject(new ApiFailure('not_signed_in', 401, 'no'));
    await flush();
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('stops sending when stopped and sends the cut-off files again on start', async () => {
    const u = manualUploader();
    const q = new UploadQueue({ upload: u.upload });
    q.add([jpeg('a.jpg'), jpeg('b.jpg'), jpeg('c.jpg'), jpeg('d.jpg')]);
    q.stop();
    // Late answers of cut-off files change nothing.
    u.take('a.jpg').reject(new ApiFailure('network', 0, 'aborted'));
    await flush();
    expect(q.summary()).toEqual({ done: 0, failed: 0, left: 4, total: 4 });
    u.sent.length = 0;
    q.start();
    expect(u.sent).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
  });
});
