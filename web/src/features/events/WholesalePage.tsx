//! Wholesale event page (/{event_key}/wholesale, spec §2): the all-photos deal with the
//! hybrid packages. The same face search as the event page, on the wholesale cart, where
//! the only way to buy is all the photos found, and behind the same consent: a selfie is
//! personal data (PDPA), and consent given on either page counts for both.

import './events.css';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { isYes } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { ConsentDialog } from './ConsentDialog';
import { EventHeader } from './EventHeader';
import { saleState } from './sale';
import { useEvent } from './useEvent';
import { useT } from './messages';

// Its own chunk, asked for when the page renders: on a slow network the event's header (its
// cover is the page's largest paint) does not wait for the search's code, nor share the
// connection with it.
const FaceSearch = lazy(() => import('./FaceSearch').then((m) => ({ default: m.FaceSearch })));

export function WholesalePage() {
  const t = useT();
  const { eventKey = '' } = useParams();
  const { data: event } = useEvent(eventKey);
  if (!event) return <Spinner label={t('event.loading')} />;
  const key = event.event_key;
  if (!isYes(event.is_hybrid)) {
    return (
      <section className="page narrow stack center">
        <title>{`${event.title} | Raceshot`}</title>
        <h1>{event.title}</h1>
        <p className="alert alert-info" data-testid="wholesale-not-supported">
          {t('event.wholesale.notSupported')}
        </p>
        <Link to={`/${key}`} className="btn btn-primary" data-testid="back-to-event">
          {t('event.wholesale.back')}
        </Link>
      </section>
    );
  }
  return (
    <section className="page event-page stack">
      <title>{`${event.title} | Raceshot`}</title>
      <EventHeader event={event} packages={event.package_hb} subtitle={t('event.wholesale.title')} />
      <p className="muted">{t('event.wholesale.help')}</p>
      {saleState(event) === 'open' && (
        <Suspense fallback={<Spinner label={t('loading')} />}>
          <FaceSearch key={`search-${key}`} event={event} kind="wholesale" />
        </Suspense>
      )}
      <ConsentDialog key={`consent-${key}`} eventKey={key} />
    </section>
  );
}
