//! Manual search page (/{event_key}/manual): every photo of the event in the order taken,
//! eighteen a page, narrowed by photographer and by a window of time (Bangkok time, as the
//! `datetime-local` inputs give it), each photo with its time taken and the bib numbers read
//! on it, and add to cart / in cart as on search results (downloads on free-download
//! events). The filters and the page live in the address, so the listing is where the
//! visitor left it when they come back from the cart. The bib search of the event page is
//! here too: its results (the same search states, kept as the latest search) replace the
//! listing until the visitor goes back to it.

import './events.css';
import { useId, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ShopEvent } from '@/api/event';
import type { ManualPhoto, ManualRequest } from '@/api/types';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { useCart } from '@/lib/cart';
import { useManualPhotos } from './api';
import { BibSearchForm } from './BibSearchForm';
import { ConsentDialog, hasConsent } from './ConsentDialog';
import { EventHeader } from './EventHeader';
import { saleState } from './sale';
import { FoundCount, NotFound, refusedBib } from './SearchOutcome';
import { SearchResults, takeOutOfCart, type CardAction } from './SearchResults';
import { useAddressEvent } from './useEvent';
import { usePhotoSearch } from './usePhotoSearch';
import { useT } from './messages';

/** Photos per page of the listing (the server's default too). */
export const MANUAL_PAGE_SIZE = 18;

/** What the address holds: `?page=2&photographer=3&from=2026-03-01T06:00&to=…`. */
type Filters = { page: number; photographer: number | null; from: string; to: string };

const DATETIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function readFilters(params: URLSearchParams): Filters {
  const page = Number(params.get('page'));
  const chosen = params.get('photographer') ?? '';
  // Photographer ids start at 0 (photos the operator added without naming one).
  const photographer = chosen === '' ? NaN : Number(chosen);
  const time = (name: string) => {
    const value = params.get(name) ?? '';
    return DATETIME_LOCAL.test(value) ? value : '';
  };
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    photographer: Number.isInteger(photographer) && photographer >= 0 ? photographer : null,
    from: time('from'),
    to: time('to'),
  };
}

function writeFilters(f: Filters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.page > 1) params.set('page', String(f.page));
  if (f.photographer !== null) params.set('photographer', String(f.photographer));
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  return params;
}

/** The body of `POST /v1/manual`: only the filters set. */
export function manualRequest(eventKey: string, f: Filters): ManualRequest {
  return {
    event_key: eventKey,
    page: f.page,
    page_size: MANUAL_PAGE_SIZE,
    ...(f.photographer === null ? {} : { photographer_id: f.photographer }),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
  };
}

/** `YYYY-MM-DD HH:MM:SS` (Bangkok time, as the server writes it) → `HH:MM:SS`. */
const clock = (takenAt: string | null | undefined): string | null => {
  const m = takenAt ? /(\d{2}:\d{2}:\d{2})/.exec(takenAt) : null;
  return m?.[1] ?? null;
};

export function ManualPage() {
  const t = useT();
  const event = useAddressEvent();
  if (!event) return <Spinner label={t('event.loading')} />;
  const key = event.event_key;
  return (
    <section className="page event-page stack manual-page">
      <title>{`${t('event.manual.title')} | ${event.title} | Raceshot`}</title>
      <EventHeader event={event} packages={event.packages} subtitle={t('event.manual.title')} />
      <p>
        <Link to={`/${key}`} data-testid="back-to-event">
          ‹ {t('event.manual.backToEvent')}
        </Link>
      </p>
      {saleState(event) === 'open' && <ManualSearch key={key} event={event} />}
      <ConsentDialog key={`consent-${key}`} eventKey={key} />
    </section>
  );
}

function ManualSearch({ event }: { event: ShopEvent }) {
  const t = useT();
  const errorText = useErrorText();
  const toast = useToast();
  const key = event.event_key;
  const cart = useCart('standard');
  const { state, startBib, busy, images, dismiss, reset } = usePhotoSearch(event, false, { restore: false });
  const action: CardAction = event.freeDownload ? 'download' : 'cart';
  const refused = refusedBib(state);
  // A refused number is said beside the field, over the listing; anything else a bib search
  // did takes the listing's place.
  const bibShown = state.phase !== 'idle' && state.phase !== 'uploading' && refused === null;

  const onBib = (bib: string) => {
    // A bib search also uses the faces in the event's photos: only with the terms accepted.
    if (!hasConsent(key)) return;
    startBib(bib);
  };

  const notMe = (photoId: number) => {
    dismiss(photoId);
    takeOutOfCart('standard', photoId, key);
    toast.success(t('event.notMe.done'));
  };

  return (
    <div className="stack">
      <p className="muted">{t('event.manual.help')}</p>
      <BibSearchForm
        busy={busy}
        searching={state.phase === 'searching'}
        fieldError={refused === null ? null : errorText(refused)}
        onSearch={onBib}
      />
      {cart.length > 0 && (
        <p>
          <Link to="/cart" className="btn btn-secondary" data-testid="cart-link">
            {t('event.cart.link', { count: cart.length })}
          </Link>
        </p>
      )}
      {bibShown ? (
        <section className="stack" data-testid="manual-bib-results">
          <p>
            <button type="button" className="btn btn-secondary" data-testid="back-to-list" onClick={reset}>
              {t('event.manual.backToList')}
            </button>
          </p>
          {state.phase === 'error' && (
            <div className="alert alert-danger" role="alert" data-testid="search-error">
              <strong>{t('event.search.failed')}</strong>
              {state.error !== null && <div>{errorText(state.error)}</div>}
            </div>
          )}
          {state.phase === 'notFound' && <NotFound noFace={state.noFace} bib={state.bib} />}
          {state.phase === 'found' && (
            <>
              <FoundCount count={images.length} bib={state.bib} />
              <SearchResults
                eventKey={key}
                photos={images}
                kind="standard"
                action={action}
                onNotMe={notMe}
                foundRef={state.foundRef}
              />
            </>
          )}
        </section>
      ) : (
        <ManualListing event={event} action={action} />
      )}
    </div>
  );
}

function ManualListing({ event, action }: { event: ShopEvent; action: CardAction }) {
  const t = useT();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const query = useManualPhotos(manualRequest(event.event_key, filters));
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / (data.page_size || MANUAL_PAGE_SIZE))) : 1;

  /** A new filter starts again from the first page; the address keeps the listing's place. */
  const change = (next: Partial<Filters>) =>
    setParams(writeFilters({ ...filters, page: 1, ...next }), { replace: true, preventScrollReset: true });
  const goTo = (page: number) => setParams(writeFilters({ ...filters, page }));
  const filtered = filters.photographer !== null || filters.from !== '' || filters.to !== '';

  const caption = (photo: ManualPhoto): ReactNode => {
    const time = clock(photo.taken_at);
    return (
      <p className="manual-caption" data-testid="manual-caption">
        <span data-testid="taken-at">{time ? t('event.manual.takenAt', { time }) : t('event.manual.timeUnknown')}</span>
        {photo.bibs.length > 0 && <span data-testid="photo-bibs">{t('event.manual.bibs', { bibs: photo.bibs.join(', ') })}</span>}
      </p>
    );
  };

  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('event.manual.photos')}</h2>
      <fieldset className="card manual-filters" data-testid="manual-filters">
        <legend>{t('event.manual.filters')}</legend>
        <div className="field">
          <label htmlFor={`${id}-photographer`}>{t('event.manual.photographer')}</label>
          <select
            id={`${id}-photographer`}
            value={filters.photographer === null ? '' : String(filters.photographer)}
            onChange={(e) => change({ photographer: e.target.value === '' ? null : Number(e.target.value) })}
            data-testid="photographer-filter"
          >
            <option value="">{t('event.manual.photographer.all')}</option>
            {(data?.photographers ?? []).map((p) => (
              <option key={p.photographer_id} value={String(p.photographer_id)}>
                {t('event.manual.photographer.option', { id: p.photographer_id, count: p.photos })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>{t('event.manual.from')}</label>
          <input
            id={`${id}-from`}
            type="datetime-local"
            value={filters.from}
            onChange={(e) => change({ from: e.target.value })}
            data-testid="from-filter"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{t('event.manual.to')}</label>
          <input
            id={`${id}-to`}
            type="datetime-local"
            value={filters.to}
            onChange={(e) => change({ to: e.target.value })}
            data-testid="to-filter"
          />
        </div>
        {filtered && (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            data-testid="clear-filters"
            onClick={() => change({ photographer: null, from: '', to: '' })}
          >
            {t('event.manual.clear')}
          </button>
        )}
      </fieldset>

      {query.isError && <ErrorAlert error={query.error} testId="manual-error" />}
      {query.isPending && <Spinner label={t('event.manual.loading')} />}
      {data && (
        <>
          <p className="row manual-summary">
            <strong data-testid="manual-total">{t('event.manual.total', { total: data.total })}</strong>
            {query.isFetching && <Spinner inline label={t('event.manual.loading')} />}
          </p>
          {data.body.length === 0 ? (
            <p className="alert alert-info" data-testid="manual-empty">
              {t('event.manual.empty')}
            </p>
          ) : (
            <SearchResults
              eventKey={event.event_key}
              photos={data.body}
              kind="standard"
              action={action}
              caption={caption}
              testId="manual-photos"
              label={t('event.manual.photos')}
            />
          )}
          {pages > 1 && (
            <nav className="row manual-pager" aria-label={t('event.manual.pages')} data-testid="manual-pager">
              <button
                type="button"
                className="btn btn-secondary"
                data-testid="page-prev"
                disabled={filters.page <= 1}
                onClick={() => goTo(filters.page - 1)}
              >
                {t('event.manual.prev')}
              </button>
              <span data-testid="page-of">{t('event.manual.pageOf', { page: filters.page, pages })}</span>
              <button
                type="button"
                className="btn btn-secondary"
                data-testid="page-next"
                disabled={filters.page >= pages}
                onClick={() => goTo(filters.page + 1)}
              >
                {t('event.manual.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
