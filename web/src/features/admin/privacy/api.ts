//! The privacy requests page's calls and server state: the states a request may be in, the
//! list of one state, and deciding a request (approve: its photos hidden; reject).

import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import { expectNoContent } from '../shell/api';

type Schemas = components['schemas'];

/** A request to hide one's photos of an event, with the photos it would hide or hides. */
export type AdminPrivacyRequest = Schemas['AdminPrivacyRequest'];
export type AdminPrivacyList = Schemas['AdminPrivacyList'];
export type PrivacyApproved = Schemas['PrivacyApproved'];

// Every list of privacy requests is under `privacy`: a decision refreshes them all.
export const privacyKeys = {
  all: ['admin', 'privacy'] as const,
  list: (state: string) => ['admin', 'privacy', state] as const,
};

export const PRIVACY_STATES = ['pending', 'approved', 'rejected'] as const;
export type PrivacyState = (typeof PRIVACY_STATES)[number];

export const isPrivacyState = (value: string | null): value is PrivacyState =>
  (PRIVACY_STATES as readonly (string | null)[]).includes(value);

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

export function usePrivacyRequests(state: PrivacyState) {
  return useQuery({ queryKey: privacyKeys.list(state), queryFn: () => fetchPrivacyRequests(state) });
}
