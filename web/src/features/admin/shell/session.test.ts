//! Where sign-in leads and how long a lock lasts: `next` stays inside the console, and
//! Retry-After is read in both of its forms.

import { ApiFailure } from '@/api/client';
import { isSignedOut, loginPath, parseRetryAfter, safeNext } from './session';

describe('safeNext', () => {
  it('keeps console pages', () => {
    expect(safeNext('/admin/orders?status=PAID')).toBe('/admin/orders?status=PAID');
    expect(safeNext('/admin')).toBe('/admin');
  });

  it('sends anything else to the dashboard', () => {
    for (const next of [null, '', '/cart', 'https://evil.example/admin', '//evil.example', '/admin/login?next=/admin']) {
      expect(safeNext(next)).toBe('/admin');
    }
  });
});

describe('loginPath', () => {
  it('remembers the page unless it is the dashboard', () => {
    expect(loginPath('/admin/events?page=2')).toBe('/admin/login?next=%2Fadmin%2Fevents%3Fpage%3D2');
    expect(loginPath('/admin')).toBe('/admin/login');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:05:00 GMT', now)).toBe(300);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('isSignedOut', () => {
  it('is true only for a missing session', () => {
    expect(isSignedOut(new ApiFailure('not_signed_in', 401, ''))).toBe(true);
    expect(isSignedOut(new ApiFailure('forbidden', 403, ''))).toBe(false);
    expect(isSignedOut(new Error('x'))).toBe(false);
  });
});
