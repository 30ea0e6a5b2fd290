//! Browser uploads of an event's photos, kept free of React so the rules can be tested
//! with a stand-in uploader: at most three files on the wire, a retry that sends only the
//! files that failed for a passing reason (network, server trouble), and client-side
//! refusal of files the server would refuse anyway.

import { ApiFailure } from '@/api/client';
import type { Uploaded } from './api';
import { uploadResumably } from './resumable';

export const UPLOAD_CONCURRENCY = 3;
export const PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;
/** The server takes originals up to 60 MB; counted generously here (MiB) so the browser never
 * refuses a file the server would take — anything in between gets the server's own 413. */
export const MAX_PHOTO_MB = 60;
const MAX_PHOTO_BYTES = MAX_PHOTO_MB * 1024 * 1024;

export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed';

export type UploadItem = {
  readonly id: number;
  readonly file: File;
  readonly state: UploadState;
  /** 0–100 while uploading. */
  readonly percent: number;
  readonly result: Uploaded['result'] | null;
  readonly error: ApiFailure | null;
  /** Whether "retry failed" sends this file again. */
  readonly retryable: boolean;
};

/** Sends one file; resolves with the server's answer or rejects with an `ApiFailure`. */
export type Uploader = (file: File, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<Uploaded>;

export type UploadSummary = { done: number; failed: number; left: number; total: number };

type Options = {
  upload: Uploader;
  concurrency?: number;
  /** Called after each file the server took (queued or already there). */
  onUploaded?: (item: UploadItem) => void;
  /** Called once the queue has nothing left to send. */
  onIdle?: () => void;
  /** The session ended: the page sends the operator to sign in. */
  onSignedOut?: () => void;
};

/** The Content-Type to send, or null when the file is not a JPEG or PNG. Some systems give
 * no type for a file, so its name decides then. */
export function photoContentType(file: File): string | null {
  if ((PHOTO_TYPES as readonly string[]).includes(file.type)) return file.type;
  if (file.type !== '') return null;
  const name = file.name.toLowerCase();
  if (name.endsWith('.jpg') || name.endsWith('.jpeg')) return 'image/jpeg';
  if (name.endsWith('.png')) return 'image/png';
  return null;
}

/** Passing trouble is worth another try; a 4xx answer (other than "too many"/"timed out")
 * would be the same next time. */
export function isRetryable(e: ApiFailure): boolean {
  return e.status === 0 || e.status >= 500 || e.status === 408 || e.status === 429;
}

export class UploadQueue {
  private items: readonly UploadItem[] = [];
  private nextId = 1;
  private readonly running = new Map<number, AbortController>();
  private readonly listeners = new Set<() => void>();
  private active = true;
  private readonly opts: Options;

  constructor(opts: Options) {
    this.opts = opts;
  }

  /** The current list (a new array after every change, for `useSyncExternalStore`). */
  snapshot = (): readonly UploadItem[] => this.items;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  summary(): UploadSummary {
    return summarize(this.items);
  }

  /** Queues files; ones that are not JPEG/PNG or are too big fail at once, never sent. */
  add(files: Iterable<File>): void {
    const added: UploadItem[] = [];
    for (const file of files) {
      const base = { id: this.nextId++, file, percent: 0, result: null, retryable: false };
      if (photoContentType(file) === null) {
        const error = new ApiFailure('unsupported_image_type', 0, 'not a JPEG or PNG file');
        added.push({ ...base, state: 'failed', error });
      } else if (file.size > MAX_PHOTO_BYTES) {
        const error = new ApiFailure('payload_too_large', 0, 'larger than the upload limit');
        added.push({ ...base, state: 'failed', error });
      } else {
        added.push({ ...base, state: 'waiting', error: null });
      }
    }
    if (added.length === 0) return;
    this.items = [...this.items, ...added];
    this.emit();
    this.pump();
  }

  /** Sends again only the files that failed for a passing reason; returns how many. */
  retryFailed(): number {
    let count = 0;
    this.items = this.items.map((item) => {
      if (item.state !== 'failed' || !item.retryable) return item;
      count++;
      return { ...item, state: 'waiting', percent: 0, error: null, retryable: false };
    });
    if (count > 0) {
      this.emit();
      this.pump();
    }
    return count;
  }

  /** Drops finished rows from the list (the photos themselves stay on the server). */
  clearDone(): void {
    const kept = this.items.filter((item) => item.state !== 'done');
    if (kept.length === this.items.length) return;
    this.items = kept;
    this.emit();
  }

  /** Stops sending (the page went away): files on the wire are cut off. */
  stop(): void {
    this.active = false;
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    // Cut-off files go back to waiting, so a restarted queue sends them again.
    this.items = this.items.map((item) => (item.state === 'uploading' ? { ...item, state: 'waiting', percent: 0 } : item));
  }

  /** Resumes after `stop` (React may unmount and mount again the same page). */
  start(): void {
    this.active = true;
    this.pump();
  }

  private pump(): void {
    const limit = this.opts.concurrency ?? UPLOAD_CONCURRENCY;
    while (this.active && this.running.size < limit) {
      const next = this.items.find((item) => item.state === 'waiting' && !this.running.has(item.id));
      if (!next) break;
      this.send(next);
    }
  }

  private send(item: UploadItem): void {
    const controller = new AbortController();
    this.running.set(item.id, controller);
    this.update(item.id, { state: 'uploading', percent: 0 });
    let answer: Promise<Uploaded>;
    try {
      answer = this.opts.upload(
        item.file,
        (fraction) => {
          if (this.running.get(item.id) !== controller) return;
          const percent = Math.max(0, Math.min(99, Math.floor(fraction * 100)));
          if (this.current(item.id)?.percent !== percent) this.update(item.id, { percent });
        },
        controller.signal,
      );
    } catch (e) {
      answer = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    answer.then(
      (result) => this.finish(item.id, controller, { state: 'done', percent: 100, result: result.result }),
      (e: unknown) => {
        const error = e instanceof ApiFailure ? e : new ApiFailure('network', 0, e instanceof Error ? e.message : String(e));
        if (error.status === 401) this.opts.onSignedOut?.();
        this.finish(item.id, controller, { state: 'failed', error, retryable: isRetryable(error) || error.status === 401 });
      },
    );
  }

  private finish(id: number, controller: AbortController, patch: Partial<UploadItem>): void {
    // A file cut off by `stop` is already back to waiting; its late answer is ignored.
    if (this.running.get(id) !== controller) return;
    this.running.delete(id);
    this.update(id, patch);
    const item = this.current(id);
    if (item?.state === 'done') this.opts.onUploaded?.(item);
    this.pump();
    if (this.running.size === 0 && !this.items.some((i) => i.state === 'waiting')) this.opts.onIdle?.();
  }

  private current(id: number): UploadItem | undefined {
    return this.items.find((item) => item.id === id);
  }

  private update(id: number, patch: Partial<UploadItem>): void {
    this.items = this.items.map((item) => (item.id === id ? { ...item, ...patch } : item));
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

export function summarize(items: readonly UploadItem[]): UploadSummary {
  let done = 0;
  let failed = 0;
  let left = 0;
  for (const item of items) {
    if (item.state === 'done') done++;
    else if (item.state === 'failed') failed++;
    else left++;
  }
  return { done, failed, left, total: items.length };
}

/** The real uploader: resumable uploads (`resumable.ts`), which pick up a file cut off by
 * the network, or by a reload of the page, from where the server stands. */
export function resumableUploader(eventKey: string): Uploader {
  return (file, onProgress, signal) => uploadResumably(eventKey, file, onProgress, signal);
}
