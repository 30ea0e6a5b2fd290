//! Event page (/{event_key}): the event's header and sale state, links to the
//! wholesale deal and the stage events' manual search, the face and bib search with their
//! results, a small link to ask for one's photos to be hidden, and the terms consent asked
//! once per event. At the top, the slot `eventNotice`: what the address brought back (the
//! answer LINE gave to a request for alerts of new photos).

import './events.css';
import { Link } from 'react-router';
import { useSlot } from '@/components/slots';
import { Spinner } from '@/components/Spinner';
import { CONTACT } from '@/lib/constants';
import { ConsentDialog } from './ConsentDialog';
import { EventHeader } from './EventHeader';
import { SaleSearch } from './SaleSearch';
import { useAddressEvent } from './useEvent';
import { useT } from './messages';

export function EventPage() {
  const t = useT();
  const event = useAddressEvent();
  const EventNotice = useSlot('eventNotice');
  if (!event) return <Spinner label={t('event.loading')} />;
  const key = event.event_key;
  return (
    <section className="page event-page stack">
      <title>{`${event.title} | Raceshot`}</title>
      {EventNotice && <EventNotice />}
      <EventHeader event={event} packages={event.packages} />
      {(event.wholesale || event.manualSearch) && (
        <div className="stack">
          {event.wholesale && (
            <Link to={`/${key}/wholesale`} className="btn btn-accent btn-block" data-testid="wholesale-link">
              {t('event.wholesaleLink')}
            </Link>
          )}
          {event.manualSearch && (
            <div className="card stack">
              <p>{t('event.manualHelp', { line: CONTACT.line })}</p>
              <Link to={`/${key}/manual`} className="btn btn-secondary btn-block" data-testid="manual-link">
                {t('event.manualLink')}
              </Link>
            </div>
          )}
        </div>
      )}
      <SaleSearch event={event} kind="standard" />
      <p className="hide-link">
        <Link to={`/${key}/hide-my-photos`} data-testid="hide-link">
          {t('event.hideLink')}
        </Link>
      </p>
      <ConsentDialog key={`consent-${key}`} eventKey={key} />
    </section>
  );
}
