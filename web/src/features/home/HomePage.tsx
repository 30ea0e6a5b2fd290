//! Home (/): the banner carousel, the events on sale 18 to a page (the page kept in the
//! address as `?page=N`), and the upcoming events when there are any.

import './home.css';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { BannerBody } from '@/api/types';
import { Pagination } from '@/components/Pagination';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { HOME_PAGE_SIZE } from '@/lib/constants';
import { useBanners, useOnSale, useUpcoming } from './api';
import { BannerStrip } from './BannerSlides';
import { EventCard } from './EventCard';
import { useT } from './messages';

const BannerCarousel = lazy(() => import('./BannerCarousel'));

/** Cards of the first grid row on common screens: loaded at once, not lazily. */
const FIRST_ROW = 4;

/** `?page=N` as a page counting from 1; anything else is page 1. */
export function pageFromQuery(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function pageCount(eventCount: number): number {
  return Math.max(0, Math.ceil(eventCount / HOME_PAGE_SIZE));
}

/** One banner is shown as it is; several turn into the carousel once its code is here. */
function Banners({ banners }: { banners: BannerBody[] }) {
  if (banners.length === 1) return <BannerStrip banners={banners} />;
  return (
    <Suspense fallback={<BannerStrip banners={banners} />}>
      <BannerCarousel banners={banners} />
    </Suspense>
  );
}

function Upcoming() {
  const t = useT();
  const { data } = useUpcoming();
  if (!data || data.length === 0) return null;
  return (
    <section className="home-section" aria-labelledby="home-upcoming" data-testid="upcoming-events">
      <h2 id="home-upcoming">{t('home.upcoming')}</h2>
      <div className="event-grid">
        {data.map((e) => (
          <EventCard key={e.event_id} event={e} heading="h3" upcoming />
        ))}
      </div>
    </section>
  );
}

export function HomePage() {
  const t = useT();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const page = pageFromQuery(params.get('page'));
  const banners = useBanners();
  const { events, count } = useOnSale(page);

  const failed = events.isError || count.isError;
  const failedAt = Math.max(events.errorUpdatedAt, count.errorUpdatedAt);
  // One toast per failed load, even when both the list and its count fail, and
  // not again on re-render or language switch; pressing Retry arms it for the next load.
  const toasted = useRef(false);
  useEffect(() => {
    if (failed && !toasted.current) {
      toasted.current = true;
      toast.error(t('home.loadError'));
    }
  }, [failed, failedAt, toast, t]);

  const retry = () => {
    toasted.current = false;
    if (events.isError) void events.refetch();
    if (count.isError) void count.refetch();
  };

  const goTo = (next: number) => {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next <= 1) p.delete('page');
      else p.set('page', String(next));
      return p;
    });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  const list = events.data;
  const pages = pageCount(count.data ?? 0);

  return (
    <div className="page home">
      {banners.data && banners.data.length > 0 && <Banners banners={banners.data} />}

      <section className="home-section" aria-labelledby="home-title">
        <h1 id="home-title">{t('home.title')}</h1>
        <p className="muted">{t('home.intro')}</p>

        {failed && !events.isFetching && (
          <div className="alert alert-danger row home-error" role="alert">
            <span>{t('home.loadError')}</span>
            <button type="button" className="btn btn-primary btn-small" onClick={retry}>
              {t('retry')}
            </button>
          </div>
        )}

        {list === undefined ? (
          events.isPending && <Spinner label={t('loading')} />
        ) : list.length === 0 ? (
          <p className="alert alert-info">{t('home.noEvents')}</p>
        ) : (
          <div
            className={`event-grid${events.isPlaceholderData ? ' is-stale' : ''}`}
            aria-busy={events.isPlaceholderData}
            data-testid="event-grid"
          >
            {list.map((e, i) => (
              <EventCard key={e.event_id} event={e} heading="h2" priority={i === 0} eager={i < FIRST_ROW} />
            ))}
          </div>
        )}

        <Pagination pageCount={pages} page={Math.min(page, Math.max(pages, 1))} onChange={goTo} />
      </section>

      <Upcoming />
    </div>
  );
}
