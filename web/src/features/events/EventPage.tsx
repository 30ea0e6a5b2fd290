//! Event page (/{event_key}, spec §2): the event's header and sale state, links to the
//! wholesale deal and the stage search, the face search with its results, and the
//! terms consent asked once per event.

import './events.css';
import { Link, useParams } from 'react-router';
import { isYes } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { useT } from '@/i18n';
import { CONTACT } from '@/lib/constants';
import { ConsentDialog } from './ConsentDialog';
import { EventHeader } from './EventHeader';
import { FaceSearch } from './FaceSearch';
import { saleState } from './sale';
import { useEvent } from './useEvent';

export function EventPage() {
  const t = useT();
  const { eventKey = '' } = useParams();
  const { data: event } = useEvent(eventKey);
  if (!event) return <Spinner label={t('event.loading')} />;
  const key = event.event_key;
  return (
    <section className="page event-page stack">
      <title>{`${event.title} | Raceshot`}</title>
      <EventHeader event={event} packages={event.package} />
      {(isYes(event.is_hybrid) || isYes(event.is_event_stage)) && (
        <div className="stack">
          {isYes(event.is_hybrid) && (
            <Link to={`/${key}/wholesale`} className="btn btn-accent btn-block" data-testid="wholesale-link">
              {t('event.wholesaleLink')}
            </Link>
          )}
          {isYes(event.is_event_stage) && (
            <div className="card stack">
              <p>{t('event.manualHelp', { line: CONTACT.line })}</p>
              <Link to={`/${key}/manual`} className="btn btn-secondary btn-block" data-testid="manual-link">
                {t('event.manualLink')}
              </Link>
            </div>
          )}
        </div>
      )}
      {saleState(event) === 'open' && <FaceSearch key={`search-${key}`} event={event} kind="standard" />}
      <ConsentDialog key={`consent-${key}`} eventKey={key} />
    </section>
  );
}
