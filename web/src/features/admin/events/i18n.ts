//! This folder's translator, so the event form's parts share one typed signature.

import { useDictionary } from '@/i18n';
import { eventsMessages } from './messages';

export function useAdminEventsT() {
  return useDictionary(eventsMessages);
}

export type AdminEventsT = ReturnType<typeof useAdminEventsT>;
