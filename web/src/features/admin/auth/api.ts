//! Signing in to the console: the call, and its failure with the server's `Retry-After`
//! (locks and rate limits).

import { api, ApiFailure, unwrap } from '@/api/client';
import { LoginFailure, parseRetryAfter } from '../shell/session';
import type { Me } from '../shell/types';

export async function signIn(body: { email: string; password: string }): Promise<Me> {
  // `unwrap` keeps only the body; the lock's end is in a header.
  const seen: { retryAfter: number | null } = { retryAfter: null };
  try {
    return await unwrap(
      api.POST('/api/admin/login', { body }).then((answer) => {
        seen.retryAfter = parseRetryAfter(answer.response.headers.get('Retry-After'));
        return answer;
      }),
    );
  } catch (e) {
    if (e instanceof ApiFailure) throw new LoginFailure(e, seen.retryAfter);
    throw e;
  }
}
