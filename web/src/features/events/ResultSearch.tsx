//! "Find my result": a runner types a part of their name (Thai or Latin; spaces and case do
//! not matter) or their bib, and sees the organiser's results rows (distance, category,
//! chip time, rank), each with a button that searches the photos of that bib as the bib
//! search does; when one row is found and the event offers it, their finisher certificate
//! (`CertificateCard`: to download when free, to put in the cart when priced). Beside the bib search on the event pages while the sale is open,
//! alone (rows and certificate, no photos) outside it.

import { useId, useState, type SyntheticEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Spinner } from '@/components/Spinner';
import { useErrorText } from '@/i18n/errors';
import { searchResults, type RaceResult } from './api';
import { CertificateCard } from './CertificateCard';
import { useT } from './messages';

type Props = {
  eventKey: string;
  /** A photo search is running: no photos of a bib are asked for meanwhile. */
  busy?: boolean;
  /** Searches the photos of a bib; none outside the sale (rows only). */
  onPhotos?: (bib: string) => void;
};

export function ResultSearch({ eventKey, busy = false, onPhotos }: Props) {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [q, setQ] = useState('');
  const search = useMutation({ mutationFn: (query: string) => searchResults(eventKey, query) });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const typed = q.trim();
    if (typed !== '' && !search.isPending) search.mutate(typed);
  };
  const rows: RaceResult[] | undefined = search.data?.results;
  const certificate = search.data?.certificate;
  // The certificate is the one row's: whose it is (bib, name) goes with it to the cart.
  const runner = rows?.length === 1 ? rows[0] : undefined;
  return (
    <section className="card result-search stack" aria-labelledby={`${id}-title`} data-testid="result-search">
      <h2 id={`${id}-title`}>{t('event.result.title')}</h2>
      <p className="muted">{t('event.result.help')}</p>
      <form className="bib-search-form" role="search" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-q`}>{t('event.result.label')}</label>
          <input
            id={`${id}-q`}
            type="search"
            name="q"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder={t('event.result.placeholder')}
            autoComplete="off"
            maxLength={100}
            enterKeyHint="search"
            aria-invalid={search.isError || undefined}
            aria-describedby={search.isError ? `${id}-error` : undefined}
            data-testid="result-input"
          />
          {search.isError && (
            <p className="field-error" id={`${id}-error`} role="alert" data-testid="result-error">
              {errorText(search.error)}
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-secondary btn-block" disabled={search.isPending} data-testid="result-submit">
          {t('event.result.submit')}
        </button>
      </form>
      {search.isPending && <Spinner label={t('event.result.searching')} />}
      {rows !== undefined && rows.length === 0 && (
        <p className="muted" data-testid="result-none">
          {t('event.result.none')}
        </p>
      )}
      {rows !== undefined && rows.length > 0 && (
        <ul className="result-rows" data-testid="result-rows">
          {rows.map((r) => (
            <li key={r.bib} className="result-row" data-testid="result-row">
              <div>
                <strong>{r.name}</strong>
                <span className="muted">
                  {' '}
                  {t('event.result.bib', { bib: r.bib })}
                  {[r.distance, r.category].filter(Boolean).map((s) => ` · ${s ?? ''}`)}
                </span>
              </div>
              <div className="result-figures">
                {(r.chip_time ?? r.gun_time) && (
                  <span data-testid="result-time">{t('event.result.time', { time: r.chip_time ?? r.gun_time ?? '' })}</span>
                )}
                {r.rank !== null && r.rank !== undefined && <span>{t('event.result.rank', { rank: r.rank })}</span>}
              </div>
              {onPhotos && (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy}
                  onClick={() => onPhotos(r.bib)}
                  data-testid="result-photos"
                >
                  {t('event.result.photos')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {certificate && runner && (
        <CertificateCard
          key={runner.bib}
          offer={certificate}
          photos={search.data?.photos?.images ?? []}
          eventKey={eventKey}
          bib={runner.bib}
          name={runner.name}
        />
      )}
    </section>
  );
}
