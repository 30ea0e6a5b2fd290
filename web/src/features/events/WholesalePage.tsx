//! Wholesale event page (/{event_key}/wholesale): the all-photos deal with the
//! wholesale packages. The same face search as the event page, on the wholesale cart, where
//! the only way to buy is all the photos found, and behind the same consent: a selfie is
//! personal data (PDPA), and consent given on either page counts for both.

import './events.css';
import { Link } from 'react-router';
import { Spinner } from '@/components/Spinner';
import { ConsentDialog } from './ConsentDialog';
import { EventHeader } from './EventHeader';
import { SaleSearch } from './SaleSearch';
import { useAddressEvent } from './useEvent';
import { useT } from './messages';

export function WholesalePage() {
  const t = useT();
  const event = useAddressEvent();
  if (!event) return <Spinner label={t('event.loading')} />;
  const key = event.event_key;
  if (!event.wholesale) {
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
      <EventHeader event={event} packages={event.wholesalePackages} subtitle={t('event.wholesale.title')} />
      <p className="muted">{t('event.wholesale.help')}</p>
      <SaleSearch event={event} kind="wholesale" />
      <ConsentDialog key={`consent-${key}`} eventKey={key} />
    </section>
  );
}
