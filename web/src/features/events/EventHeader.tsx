//! The top of both event pages: cover, title, dates, province, sale window, package chips,
//! the red warning when the sale ends within 1..10 days, and the sale-state notice.

import type { Package, ShopEvent } from '@/api/event';
import { useLanguage } from '@/i18n';
import { formatBaht } from '@/lib/money';
import { formatBangkokDate, formatBangkokDateTime } from '@/lib/dates';
import { saleState, saleWarningDays } from './sale';
import { useT } from './messages';

type Props = { event: ShopEvent; packages: Package[]; subtitle?: string };

export function EventHeader({ event, packages, subtitle }: Props) {
  const t = useT();
  const [lang] = useLanguage();
  const days = saleWarningDays(event.day_diff);
  const sale = saleState(event);
  const date = event.event_date_text.trim() || formatBangkokDate(event.eventdate, lang);
  return (
    <header className="event-header stack">
      {event.coverurl && (
        // The page's largest paint on a phone: fetched first, its 16:9 box (the covers' ratio,
        // as on the home cards) reserved before it arrives.
        <img
          className="event-cover"
          src={event.coverurl}
          alt={t('event.coverAlt', { title: event.title })}
          width={640}
          height={360}
          fetchPriority="high"
        />
      )}
      <div className="stack">
        <h1 data-testid="event-title">{event.title}</h1>
        {subtitle && <p className="lead">{subtitle}</p>}
        <dl className="event-facts">
          <div>
            <dt>{t('event.date')}</dt>
            <dd>{date}</dd>
          </div>
          {event.province && (
            <div>
              <dt>{t('event.province')}</dt>
              <dd>{event.province}</dd>
            </div>
          )}
          <div>
            <dt>{t('event.saleWindow')}</dt>
            <dd data-testid="sale-window">
              {t('event.saleWindowValue', {
                start: formatBangkokDateTime(event.on_sale_start, lang),
                end: formatBangkokDateTime(event.on_sale_end, lang),
              })}
            </dd>
          </div>
        </dl>
        {packages.length > 0 && (
          <div className="row" role="list" aria-label={t('event.packages')}>
            {packages.map((p) => (
              <span key={`${p.name}-${String(p.number_of_photo)}`} className="chip" role="listitem" data-testid="package-chip">
                {t('event.packagePrice', {
                  name: lang === 'en' && p.name_en ? p.name_en : p.name,
                  price: formatBaht(p.price),
                })}
              </span>
            ))}
          </div>
        )}
        {days !== null && sale === 'open' && (
          <p className="alert alert-danger" role="alert" data-testid="sale-warning">
            {t('event.daysLeft', { days })}
          </p>
        )}
        {sale === 'notStarted' && (
          <p className="alert alert-info" data-testid="sale-not-started">
            {t('event.comeBack', { date: event.on_sale_start_txt })}
          </p>
        )}
        {sale === 'closed' && (
          <p className="alert alert-danger" data-testid="sale-closed">
            {t('event.endOfSale')}
          </p>
        )}
      </div>
    </header>
  );
}
