//! Home's calls and queries: the banners, the upcoming events, a page of the events on sale
//! and their count, each starting from the answer the server embedded in the page if any.
//! Events come as the app's `ShopEvent` (`eventFromWire`).

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { eventFromWire, type ShopEvent } from '@/api/event';
import type { BannerBody, EventBody } from '@/api/types';
import { preloadedAt, takePreloaded, type Preloaded } from '@/lib/config';
import { HOME_PAGE_SIZE } from '@/lib/constants';

export const homeQueryKeys = {
  banners: ['events', 'slider-banner'] as const,
  upcoming: ['events', 'soon'] as const,
  onSale: (page: number) => ['events', 'pagination', page, HOME_PAGE_SIZE] as const,
  onSaleCount: ['events', 'pagination-count', 'ON_SALE'] as const,
};

type Answer<T> = { body: T[] };
type Count = { event_count: number };

const bodyOf = <T>(answer: Answer<T>): T[] => answer.body;
const eventsOf = (answer: Answer<EventBody>): ShopEvent[] => answer.body.map(eventFromWire);
const countOf = (answer: Answer<Count>): number => answer.body[0]?.event_count ?? 0;

/** The answer `raceshot serve` embedded in the page, for the query of the first page shown
 * (`initialData`: painted at once, fresh for `staleTime` from the page's start). */
function embedded<K extends 'banners' | 'soon' | 'events' | 'count', T>(
  key: K,
  shape: (answer: NonNullable<Preloaded[K]>) => T,
) {
  return {
    initialData: (): T | undefined => {
      const answer = takePreloaded(key);
      return answer === undefined ? undefined : shape(answer);
    },
    initialDataUpdatedAt: preloadedAt,
  };
}

export async function fetchBanners(): Promise<BannerBody[]> {
  return bodyOf(await unwrap(api.GET('/v1/events/slider-banner')));
}

export async function fetchUpcoming(): Promise<ShopEvent[]> {
  return eventsOf(await unwrap(api.GET('/v1/events/soon')));
}

export async function fetchOnSale(page: number): Promise<ShopEvent[]> {
  return eventsOf(await unwrap(api.POST('/v1/events/pagination', { body: { page, page_size: HOME_PAGE_SIZE } })));
}

export async function fetchOnSaleCount(): Promise<number> {
  return countOf(await unwrap(api.POST('/v1/events/pagination-count', { body: { event_status: 'ON_SALE' } })));
}

export function useBanners() {
  return useQuery({
    queryKey: homeQueryKeys.banners,
    queryFn: fetchBanners,
    ...embedded('banners', bodyOf<BannerBody>),
  });
}

export function useUpcoming() {
  return useQuery({
    queryKey: homeQueryKeys.upcoming,
    queryFn: fetchUpcoming,
    ...embedded('soon', eventsOf),
  });
}

export function useOnSale(page: number) {
  const events = useQuery({
    queryKey: homeQueryKeys.onSale(page),
    queryFn: () => fetchOnSale(page),
    // The old page stays on screen while the next one loads, so the grid does not jump.
    placeholderData: keepPreviousData,
    // The server embeds the first page only.
    ...(page === 1 ? embedded('events', eventsOf) : {}),
  });
  const count = useQuery({
    queryKey: homeQueryKeys.onSaleCount,
    queryFn: fetchOnSaleCount,
    ...embedded('count', countOf),
  });
  return { events, count };
}
