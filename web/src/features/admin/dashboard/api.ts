//! The dashboard's own call: the race-day view (`GET /api/admin/race-day`), refreshed while
//! the dashboard is open.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type RaceDay = Schemas['RaceDay'];
export type EventRaceDay = Schemas['EventRaceDay'];

/** The windows an operator may chart, in hours. */
export const RACE_DAY_HOURS = [1, 3, 6, 12] as const;
export type RaceDayHours = (typeof RACE_DAY_HOURS)[number];

/** How often the open dashboard refreshes the view, in milliseconds. */
export const RACE_DAY_REFRESH_MS = 30_000;

export const raceDayKey = (hours: RaceDayHours) => ['admin', 'race-day', hours] as const;

export function fetchRaceDay(hours: RaceDayHours): Promise<RaceDay> {
  return unwrap(api.GET('/api/admin/race-day', { params: { query: { hours } } }));
}
