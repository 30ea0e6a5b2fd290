//! The privacy requests page's server state: the states a request may be in, and the query
//! of one state's list, over the console's calls.

import { useQuery } from '@tanstack/react-query';
import { adminKeys, fetchPrivacyRequests } from '../shell/api';

export const PRIVACY_STATES = ['pending', 'approved', 'rejected'] as const;
export type PrivacyState = (typeof PRIVACY_STATES)[number];

export const isPrivacyState = (value: string | null): value is PrivacyState =>
  (PRIVACY_STATES as readonly (string | null)[]).includes(value);

export function usePrivacyRequests(state: PrivacyState) {
  return useQuery({ queryKey: adminKeys.privacyList(state), queryFn: () => fetchPrivacyRequests(state) });
}
