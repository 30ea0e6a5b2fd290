//! The dashboard's race-day view: the ingestion queue (its depth, the pace of the last ten
//! minutes, the expected wait of a photo sent now), then per event with anything going on,
//! the photos received in the last minutes and those waiting, and small charts of the last
//! hours: photos received (bars) against photos made searchable (line), face searches, and
//! each photographer's photos. Refreshed every 30 seconds; every figure is the server's.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { formatBangkokTime } from '@/lib/dates';
import { RetryAlert } from '../shell/RetryAlert';
import {
  fetchRaceDay,
  RACE_DAY_HOURS,
  RACE_DAY_REFRESH_MS,
  raceDayKey,
  type EventRaceDay,
  type RaceDay as RaceDayAnswer,
  type RaceDayHours,
} from './api';
import { dashboardMessages } from './messages';
import './race-day.css';

const sum = (series: number[]) => series.reduce((a, b) => a + b, 0);

/** Chart geometry, in the SVG's own units. */
const WIDTH = 360;
const HEIGHT = 72;

type ChartProps = {
  /** Drawn as bars. */
  bars: number[];
  /** Drawn as a line over the bars, on the same scale. */
  line?: number[];
  height?: number;
  label: string;
  testId?: string;
};

/** Bars, and optionally a line, over equal buckets, scaled to the largest value. */
function Chart({ bars, line, height = HEIGHT, label, testId }: ChartProps) {
  const top = Math.max(1, ...bars, ...(line ?? []));
  const step = WIDTH / Math.max(1, bars.length);
  const y = (v: number) => height - (v / top) * (height - 2);
  const points = (line ?? []).map((v, i) => `${(i * step + step / 2).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <svg
      className="race-day-chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      data-testid={testId}
    >
      {bars.map((v, i) =>
        v > 0 ? (
          <rect
            key={i}
            className="race-day-bar"
            x={i * step + 1}
            width={Math.max(1, step - 2)}
            y={y(v)}
            height={height - y(v)}
          />
        ) : null,
      )}
      {line && <polyline className="race-day-line" points={points} fill="none" />}
    </svg>
  );
}

function Axis({ answer, buckets }: { answer: RaceDayAnswer; buckets: number }) {
  const [lang] = useLanguage();
  const start = new Date(answer.since);
  const last = new Date(start.getTime() + (buckets - 1) * answer.bucket_minutes * 60_000);
  return (
    <div className="race-day-axis muted">
      <span>{formatBangkokTime(start, lang)}</span>
      <span>{formatBangkokTime(last, lang)}</span>
    </div>
  );
}

function Queue({ queue }: { queue: RaceDayAnswer['queue'] }) {
  const t = useDictionary(dashboardMessages);
  const wait =
    queue.expected_wait_secs === null || queue.expected_wait_secs === undefined
      ? t('raceDay.wait.unknown')
      : queue.expected_wait_secs === 0
        ? t('raceDay.wait.none')
        : t('raceDay.wait.minutes', { minutes: Math.max(1, Math.ceil(queue.expected_wait_secs / 60)) });
  const tiles = [
    { testId: 'race-day-queue', label: t('raceDay.queue'), value: queue.depth.toLocaleString() },
    {
      testId: 'race-day-pace',
      label: t('raceDay.pace'),
      value: t('raceDay.perMinute', { count: queue.per_minute.toLocaleString(undefined, { maximumFractionDigits: 1 }) }),
    },
    { testId: 'race-day-wait', label: t('raceDay.wait'), value: wait },
  ];
  return (
    <div className="admin-totals">
      {tiles.map((tile) => (
        <div key={tile.testId} className="card admin-total" data-testid={tile.testId}>
          <span className="admin-total-value">{tile.value}</span>
          <span className="muted">{tile.label}</span>
        </div>
      ))}
    </div>
  );
}

function EventPanel({ event, answer }: { event: EventRaceDay; answer: RaceDayAnswer }) {
  const t = useDictionary(dashboardMessages);
  const received = sum(event.received);
  const searchable = sum(event.searchable);
  const searches = sum(event.searches);
  const buckets = event.received.length;
  return (
    <article className="card race-day-event" data-testid="race-day-event">
      <h3>
        {event.title} <code className="muted">{event.event_key}</code>
      </h3>
      <dl className="admin-facts">
        <div>
          <dt>{t('raceDay.recent', { minutes: answer.recent_minutes })}</dt>
          <dd data-testid="race-day-recent">{event.received_recent.toLocaleString()}</dd>
        </div>
        <div>
          <dt>{t('raceDay.waiting')}</dt>
          <dd data-testid="race-day-waiting">{event.waiting.toLocaleString()}</dd>
        </div>
      </dl>
      <p className="race-day-legend">
        <span className="race-day-key-bar" /> {t('raceDay.received', { count: received.toLocaleString() })}{' '}
        <span className="race-day-key-line" /> {t('raceDay.searchable', { count: searchable.toLocaleString() })}
      </p>
      <Chart
        bars={event.received}
        line={event.searchable}
        label={t('raceDay.photosChart', { received, searchable })}
        testId="race-day-photos-chart"
      />
      <Axis answer={answer} buckets={buckets} />
      <p className="race-day-legend">
        <span className="race-day-key-bar race-day-key-searches" />{' '}
        {t('raceDay.searches', { count: searches.toLocaleString() })}
      </p>
      <div className="race-day-searches">
        <Chart bars={event.searches} height={40} label={t('raceDay.searchesChart', { searches })} />
      </div>
      {event.photographers.length > 0 && (
        <table className="race-day-photographers">
          <caption>{t('raceDay.photographers')}</caption>
          <tbody>
            {event.photographers.map((p) => (
              <tr key={p.photographer_id} data-testid="race-day-photographer">
                <th scope="row">
                  {p.photographer_id === 0
                    ? t('raceDay.otherSources')
                    : (p.email ?? t('raceDay.photographer', { id: p.photographer_id }))}
                </th>
                <td className="race-day-count">{sum(p.received).toLocaleString()}</td>
                <td className="race-day-spark">
                  <Chart bars={p.received} height={20} label={t('raceDay.received', { count: sum(p.received) })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}

export function RaceDay() {
  const t = useDictionary(dashboardMessages);
  const common = useT();
  const [hours, setHours] = useState<RaceDayHours>(3);
  const view = useQuery({
    queryKey: raceDayKey(hours),
    queryFn: () => fetchRaceDay(hours),
    refetchInterval: RACE_DAY_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  return (
    <section className="race-day" aria-labelledby="race-day-title" data-testid="race-day">
      <div className="row race-day-head">
        <h2 id="race-day-title">{t('raceDay.title')}</h2>
        <label className="row">
          <span className="muted">{t('raceDay.window')}</span>
          <select
            value={hours}
            onChange={(e) => setHours(Number(e.target.value) as RaceDayHours)}
            data-testid="race-day-hours"
          >
            {RACE_DAY_HOURS.map((h) => (
              <option key={h} value={h}>
                {t('raceDay.hours', { hours: h })}
              </option>
            ))}
          </select>
        </label>
      </div>
      {view.isPending && <Spinner label={common('loading')} />}
      {view.isError && <RetryAlert query={view} />}
      {view.data && (
        <>
          <Queue queue={view.data.queue} />
          {view.data.events.length === 0 ? (
            <p className="muted" data-testid="race-day-quiet">
              {t('raceDay.quiet', { hours })}
            </p>
          ) : (
            <div className="admin-event-grid">
              {view.data.events.map((e) => (
                <EventPanel key={e.event_key} event={e} answer={view.data} />
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}
