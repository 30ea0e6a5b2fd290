//! One event of the home lists: cover, title, date text, date, province, and a pinned
//! marker. On-sale cards link to the event by its key; upcoming cards show the sale start.

import { Link } from 'react-router';
import type { ShopEvent } from '@/api/event';
import { useLanguage } from '@/i18n';
import { formatBangkokDate, formatBangkokDateTime } from '@/lib/dates';
import { LocationIcon, PinIcon } from './icons';
import { useT } from './messages';

type Props = {
  event: ShopEvent;
  heading: 'h2' | 'h3';
  /** The Largest Contentful Paint candidate: fetched first, never lazily. */
  priority?: boolean;
  /** Above the fold on common screens: not worth deferring. */
  eager?: boolean;
  upcoming?: boolean;
};

export function EventCard({ event, heading: Heading, priority = false, eager = false, upcoming = false }: Props) {
  const t = useT();
  const [lang] = useLanguage();
  const body = (
    <>
      <div className="event-cover">
        <img
          src={event.coverurl}
          alt=""
          width={640}
          height={360}
          loading={priority || eager ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
        />
        {event.pin === 1 && (
          <span className="event-pin" data-testid="event-pinned">
            <PinIcon />
            {t('home.pinned')}
          </span>
        )}
      </div>
      <div className="event-body">
        <Heading className="event-title">{event.title}</Heading>
        {event.event_date_text && <p className="event-date-text">{event.event_date_text}</p>}
        <p className="event-meta">
          <time dateTime={event.eventdate}>{formatBangkokDate(event.eventdate, lang)}</time>
        </p>
        {event.province && (
          <p className="event-meta event-province">
            <LocationIcon />
            <span className="visually-hidden">{t('home.location')}: </span>
            <span>{event.province}</span>
          </p>
        )}
        {upcoming && event.on_sale_start_txt && (
          <p className="chip event-sale-start">
            {t('home.saleStarts', { date: formatBangkokDateTime(event.on_sale_start_txt, lang) })}
          </p>
        )}
      </div>
    </>
  );
  return (
    <Link
      to={`/${encodeURIComponent(event.event_key)}`}
      className="event-card"
      data-testid={upcoming ? 'upcoming-card' : 'event-card'}
    >
      {body}
    </Link>
  );
}
