//! The one API client: typed by the generated `schema.d.ts` (from openapi.json), carrying
//! the client token, and turning every error answer into an `ApiFailure` with its code.

import createClient, { type Middleware } from 'openapi-fetch';
import { clientToken } from '@/lib/config';
import type { components, paths } from './schema';

export type ErrorCode = components['schemas']['ErrorBody']['code'];
export type FieldProblem = components['schemas']['FieldProblem'];

/** An answer that was not a success: the server's stable code, or `network` when none came;
 * for a refused form, every field the server named (one `field` alone counts as one). */
export class ApiFailure extends Error {
  readonly code: ErrorCode | 'network';
  readonly status: number;
  readonly field: string | null;
  readonly errors: FieldProblem[];

  constructor(
    code: ErrorCode | 'network',
    status: number,
    message: string,
    field?: string | null,
    errors?: FieldProblem[] | null,
  ) {
    super(message);
    this.name = 'ApiFailure';
    this.code = code;
    this.status = status;
    this.field = field ?? null;
    this.errors = errors?.length ? errors : field ? [{ field, message }] : [];
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    request.headers.set('Authorization', `Bearer ${clientToken()}`);
    return request;
  },
};

// Absolute addresses on the page's own origin; `fetch` is looked up on every call, so tests
// can stand in for the network.
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? '' : window.location.origin,
  fetch: (request) => globalThis.fetch(request),
});
api.use(auth);

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The data of a successful answer; throws `ApiFailure` otherwise. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (e) {
    throw new ApiFailure('network', 0, e instanceof Error ? e.message : String(e));
  }
  const { data, error, response } = answer;
  if (error !== undefined || data === undefined || !response.ok) {
    const body = (error ?? {}) as Partial<components['schemas']['ErrorBody']>;
    throw new ApiFailure(
      body.code ?? 'internal',
      response.status,
      body.message ?? response.statusText,
      body.field,
      body.errors,
    );
  }
  return data;
}

export function failureCode(e: unknown): ErrorCode | 'network' {
  return e instanceof ApiFailure ? e.code : 'network';
}
