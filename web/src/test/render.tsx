//! Renders a component or route inside the app's providers, for component tests, and
//! stands in for the server's answers.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { DialogProvider } from '@/components/Dialog';
import { ToastProvider } from '@/components/Toast';
import { I18nProvider, type Language } from '@/i18n';
import { STORAGE_KEYS } from '@/lib/storage';

type Options = { path?: string; route?: string; routes?: RouteObject[]; lang?: Language };

/** Renders `ui` at `route` (default `/`), matched by `path` (default `*`), in `lang` when
 * given (as if the visitor had chosen it), else in the language already stored. */
export function renderWithProviders(ui: ReactElement, { path = '*', route = '/', routes = [], lang }: Options = {}) {
  if (lang) window.localStorage.setItem(STORAGE_KEYS.language, lang);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path, element: ui }, ...routes], { initialEntries: [route] });
  return {
    router,
    ...render(
      <QueryClientProvider client={client}>
        <I18nProvider>
          <ToastProvider>
            <DialogProvider>
              <RouterProvider router={router} />
            </DialogProvider>
          </ToastProvider>
        </I18nProvider>
      </QueryClientProvider>,
    ),
  };
}

type ErrorExtra = { headers?: Record<string, string>; body?: object };

/** An error answer as the server sends it: its code, and the code as its message unless
 * `body` gives one. */
export function errorResponse(status: number, code: string, extra: ErrorExtra = {}): Response {
  return new Response(JSON.stringify({ status: 'error', code, message: code, ...extra.body }), {
    status,
    headers: { 'content-type': 'application/json', ...extra.headers },
  });
}

/** An error answer for `fakeFetch`: a new Response every call (bodies read once). */
export function errorAnswer(status: number, code: string, extra: ErrorExtra = {}) {
  return () => errorResponse(status, code, extra);
}

/** A request's JSON body, or its text when it is not JSON (a CSV file). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A fetch stand-in answering JSON by "METHOD path" (the real server is exercised end to end
 * by the Playwright suite; component tests check what the page does with an answer). Each
 * answer is a JSON value, a `Response`, or a function of the request's body (JSON, or the
 * text of a body that is not JSON) and query giving one. */
export function fakeFetch(answers: Record<string, unknown>) {
  const calls: { key: string; body: unknown }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = new URL(req.url, 'http://localhost');
    const key = `${req.method} ${url.pathname}`;
    // A multipart body (a file upload) is not read: the test looks at the form it built.
    const multipart = req.headers.get('content-type')?.startsWith('multipart/form-data') ?? false;
    const text = req.method === 'GET' || multipart ? '' : await req.text();
    const body: unknown = multipart ? 'multipart' : text ? parsed(text) : undefined;
    calls.push({ key, body });
    const answer = answers[key];
    if (answer === undefined) {
      return new Response(JSON.stringify({ status: 'error', code: 'not_found', message: key }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    const value =
      typeof answer === 'function' ? (answer as (b: unknown, q: URLSearchParams) => unknown)(body, url.searchParams) : answer;
    if (value instanceof Response) return value;
    return new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}
