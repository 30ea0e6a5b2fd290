//! The console's session rules: who may do what, when a failure means the session is gone,
//! where signing in leads (and back), and how long a locked account waits.

import { ApiFailure } from '@/api/client';
import type { Me } from './types';

export const isAdmin = (me: Pick<Me, 'role'>): boolean => me.role === 'admin';

/** A failure that means the session is gone: the visitor has to sign in again. */
export const isSignedOut = (e: unknown): boolean =>
  e instanceof ApiFailure && (e.status === 401 || e.code === 'not_signed_in');

/** Where a signed-out visitor goes, remembering the page to come back to. */
export function loginPath(next: string): string {
  return next && next !== '/admin' ? `/admin/login?next=${encodeURIComponent(next)}` : '/admin/login';
}

/** `next` when it is a console page (never the sign-in page itself, never another site). */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/admin') || next.startsWith('/admin/login')) {
    return '/admin';
  }
  return next;
}

/** Seconds of a `Retry-After` header (a number of seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A failed sign-in, with the server's `Retry-After` when it sent one (locks and rate limits). */
export class LoginFailure extends ApiFailure {
  readonly retryAfterSeconds: number | null;
  /** The moment the server allows the next try (counted from when the answer came). */
  readonly retryAt: Date | null;

  constructor(cause: ApiFailure, retryAfterSeconds: number | null) {
    super(cause.code, cause.status, cause.message, cause.field);
    this.name = 'LoginFailure';
    this.retryAfterSeconds = retryAfterSeconds;
    this.retryAt = retryAfterSeconds === null ? null : new Date(Date.now() + retryAfterSeconds * 1000);
  }
}
