//! Every call the console makes, in one place and one way: the shared `api` client (typed by
//! the generated contract) and `unwrap`, which gives the answer's data or throws an
//! `ApiFailure` with the server's code. The photo upload alone goes by XMLHttpRequest (for
//! its progress), and its answer still goes through `unwrap`. Query keys all start with
//! `admin`, so a sign-out can drop every one of them.

import { api, ApiFailure, unwrap } from '@/api/client';
import { LoginFailure, parseRetryAfter } from './session';
import type {
  AdminEventList,
  AdminOrder,
  AdminOrderList,
  AdminPhotoList,
  AdminPrivacyList,
  AuditEntry,
  BibCorrection,
  ImportEvent,
  Me,
  OperatorOutcome,
  OrderQuery,
  PhotoFlags,
  PhotoQuery,
  PrivacyApproved,
  Uploaded,
  Written,
} from './types';

export const adminKeys = {
  all: ['admin'] as const,
  me: ['admin', 'me'] as const,
  events: ['admin', 'events'] as const,
  event: (eventKey: string) => ['admin', 'event', eventKey] as const,
  audit: (before: number | null) => ['admin', 'audit', before] as const,
  // Every list of orders (the orders page's, the bell's) is under `orders`: an approval
  // refreshes them all.
  orders: ['admin', 'orders'] as const,
  orderList: (query: OrderQuery) => ['admin', 'orders', query] as const,
  order: (uuid: string) => ['admin', 'order', uuid] as const,
  photos: (eventKey: string) => ['admin', 'photos', eventKey] as const,
  photoPage: (eventKey: string, query: PhotoQuery) => ['admin', 'photos', eventKey, query] as const,
  // Every list of privacy requests is under `privacy`: a decision refreshes them all.
  privacy: ['admin', 'privacy'] as const,
  privacyList: (state: string) => ['admin', 'privacy', state] as const,
};

type Answer = { data?: unknown; error?: unknown; response: Response };

/** For calls answered by 204: `unwrap`'s checks, with no data to return. */
export async function expectNoContent(call: Promise<Answer>): Promise<void> {
  await unwrap(call.then(({ error, response }) => (response.ok ? { data: null, response } : { error, response })));
}


// ---- requests to hide one's photos ----

/** The requests in one state (`pending`, `approved`, `rejected`), newest first. */
export function fetchPrivacyRequests(state: string): Promise<AdminPrivacyList> {
  return unwrap(api.GET('/api/admin/privacy/requests', { params: { query: { state } } }));
}

/** Hides every photo of the event showing the request's face (now and added later). */
export function approvePrivacyRequest(requestId: string): Promise<PrivacyApproved> {
  return unwrap(
    api.POST('/api/admin/privacy/requests/{request_id}/approve', { params: { path: { request_id: requestId } } }),
  );
}

/** Rejects the request: its face template is deleted. */
export function rejectPrivacyRequest(requestId: string): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/privacy/requests/{request_id}/reject', { params: { path: { request_id: requestId } } }),
  );
}

// ---- the session ----

export function fetchMe(): Promise<Me> {
  return unwrap(api.GET('/api/admin/me'));
}

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

export async function signOut(): Promise<void> {
  // A failed sign-out still ends on the sign-in page; the server's session expires by itself.
  await expectNoContent(api.POST('/api/admin/logout')).catch(() => undefined);
}

// ---- events ----

export function fetchAdminEvents(): Promise<AdminEventList> {
  return unwrap(api.GET('/api/admin/events'));
}

/** One event in the import format, hidden ones and banners included (admins). The contract
 * gives the answer no fields, so the form reads and checks each one it uses. */
export function fetchImportEvent(eventKey: string): Promise<Record<string, unknown>> {
  return unwrap(api.GET('/api/admin/events/{event_key}', { params: { path: { event_key: eventKey } } }));
}

/** Creates or replaces an event (admins); a 422's `ApiFailure` names every bad field. */
export function putEvent(eventKey: string, event: ImportEvent): Promise<Written> {
  return unwrap(api.PUT('/api/admin/events/{event_key}', { params: { path: { event_key: eventKey } }, body: event }));
}

export function closeSale(eventKey: string, closed: boolean): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/events/{event_key}/close', { params: { path: { event_key: eventKey } }, body: { closed } }),
  );
}

// ---- the audit log ----

/** The audit log's page size (server side, `PAGE` in audit.rs): a shorter page is the last. */
export const AUDIT_PAGE_SIZE = 50;

export async function fetchAudit(before: number | null): Promise<AuditEntry[]> {
  const page = await unwrap(api.GET('/api/admin/audit', { params: { query: before === null ? {} : { before } } }));
  return page.entries;
}

// ---- orders ----

export function fetchOrders(query: OrderQuery): Promise<AdminOrderList> {
  return unwrap(api.GET('/api/admin/orders', { params: { query } }));
}

export function fetchOrder(uuid: string): Promise<AdminOrder> {
  return unwrap(api.GET('/api/admin/orders/{order_uuid}', { params: { path: { order_uuid: uuid } } }));
}

export function approveOrder(uuid: string): Promise<OperatorOutcome> {
  return unwrap(api.POST('/api/admin/orders/{order_uuid}/approve', { params: { path: { order_uuid: uuid } } }));
}

export function confirmOrder(uuid: string, slipRef: string): Promise<OperatorOutcome> {
  return unwrap(
    api.POST('/api/admin/orders/{order_uuid}/confirm', {
      params: { path: { order_uuid: uuid } },
      body: { slip_ref: slipRef },
    }),
  );
}

export function resendEmail(uuid: string): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/orders/{order_uuid}/resend-email', { params: { path: { order_uuid: uuid } } }),
  );
}

// ---- photos ----

export function fetchPhotos(eventKey: string, query: PhotoQuery): Promise<AdminPhotoList> {
  return unwrap(api.GET('/api/admin/events/{event_key}/photos', { params: { path: { event_key: eventKey }, query } }));
}

export function changePhoto(photoId: number, flags: PhotoFlags): Promise<void> {
  return expectNoContent(api.POST('/api/admin/photos/{photo_id}', { params: { path: { photo_id: photoId } }, body: flags }));
}

/** Puts a bib on a photo (`present`, also restoring one taken off) or takes it off; an
 * operator's correction wins over reading. Refused with 422 `invalid_bib` when the number
 * does not fit the event's bib rule. */
export function setPhotoBib(photoId: number, correction: BibCorrection): Promise<void> {
  return expectNoContent(
    api.POST('/api/admin/photos/{photo_id}/bibs', { params: { path: { photo_id: photoId } }, body: correction }),
  );
}

/** Refused with 409 `photo_sold` when the photo is in an order (hide it instead). */
export function deletePhoto(photoId: number): Promise<void> {
  return expectNoContent(api.DELETE('/api/admin/photos/{photo_id}', { params: { path: { photo_id: photoId } } }));
}

const isUploaded = (v: unknown): v is Uploaded =>
  typeof v === 'object' &&
  v !== null &&
  'photo_id' in v &&
  typeof v.photo_id === 'number' &&
  'result' in v &&
  typeof v.result === 'string';

/** The XMLHttpRequest's answer in the shape `unwrap` reads, so an upload fails the same way
 * as every other call. A success that cannot be read counts as server trouble (502). */
function xhrAnswer(xhr: XMLHttpRequest): { data?: Uploaded; error?: unknown; response: Response } {
  const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // A proxy's HTML page or an empty body: the status alone says what happened.
  }
  if (xhr.status >= 200 && xhr.status < 300) {
    if (isUploaded(body)) return { data: body, response: new Response(null, { status: xhr.status }) };
    return { response: new Response(null, { status: 502, statusText: 'unreadable answer' }) };
  }
  return { error: body, response: new Response(null, { status: xhr.status, statusText: xhr.statusText }) };
}

/** `PUT /api/admin/events/{event_key}/photos`: the raw file as the body, sent with
 * XMLHttpRequest because (unlike `fetch`) it reports upload progress. */
export function uploadPhoto(
  eventKey: string,
  file: File,
  contentType: string,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<Uploaded> {
  const answer = new Promise<ReturnType<typeof xhrAnswer>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const path = `/api/admin/events/${encodeURIComponent(eventKey)}/photos?file_name=${encodeURIComponent(file.name)}`;
    xhr.open('PUT', `${window.location.origin}${path}`);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      // `Response` takes only HTTP statuses; anything else is no answer at all.
      if (xhr.status < 200 || xhr.status > 599) reject(new Error(`no answer (${xhr.status})`));
      else resolve(xhrAnswer(xhr));
    };
    xhr.onerror = () => reject(new Error('network error'));
    xhr.ontimeout = () => reject(new Error('timed out'));
    xhr.onabort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
  return unwrap(answer);
}
