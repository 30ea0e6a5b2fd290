//! The dashboard's own calls: the race-day view (`GET /api/admin/race-day`), refreshed while
//! the dashboard is open, and the messages to runners (`GET /api/admin/messages`).

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type RaceDay = Schemas['RaceDay'];
export type EventRaceDay = Schemas['EventRaceDay'];
export type MessagesBody = Schemas['MessagesBody'];

/** The windows an operator may chart, in hours. */
export const RACE_DAY_HOURS = [1, 3, 6, 12] as const;
export type RaceDayHours = (typeof RACE_DAY_HOURS)[number];

/** How often the open dashboard refreshes the view, in milliseconds. */
export const RACE_DAY_REFRESH_MS = 30_000;

export const raceDayKey = (hours: RaceDayHours) => ['admin', 'race-day', hours] as const;

export function fetchRaceDay(hours: RaceDayHours): Promise<RaceDay> {
  return unwrap(api.GET('/api/admin/race-day', { params: { query: { hours } } }));
}

export const messagesKey = ['admin', 'messages'] as const;

/** Messages to runners: each channel today, and the last day's counts (admins only). */
export function fetchMessages(): Promise<MessagesBody> {
  return unwrap(api.GET('/api/admin/messages', { params: { query: { days: 1 } } }));
}
