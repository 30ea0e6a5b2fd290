//! Console photos of an event (`/admin/events/:eventKey/photos`): browser upload of many
//! files, live ingestion progress, and the photo grid with hide / highlight / delete.

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiFailure } from '@/api/client';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { AdminPagination } from '../shell/AdminPagination';
import { adminKeys } from '../shell/api';
import { useAdminEvents } from '../shell/events';
import { isSignedOut } from '../shell/session';
import { photoKeys, useAdminPhotos, type PhotoCounts, type PhotoQuery } from './api';
import { useAdminPhotosT } from './i18n';
import { IngestProgress } from './IngestProgress';
import { PhotoCard } from './PhotoCard';
import { UPLOAD_REFRESH_MS } from './polling';
import { isPhotoState, PHOTO_STATES, type PhotoState } from './states';
import { UploadPanel } from './UploadPanel';
import type { Uploader } from './uploadQueue';
import './admin-photos.css';

type Props = { uploader?: Uploader };

export function PhotosPage({ uploader }: Props = {}) {
  const { eventKey = '' } = useParams();
  // A different event is a different page: its uploads and state start afresh.
  return <EventPhotos key={eventKey} eventKey={eventKey} uploader={uploader} />;
}

function parseState(raw: string | null): PhotoState | null {
  return isPhotoState(raw) ? raw : null;
}

function parsePage(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

const sum = (c: PhotoCounts) => c.queued + c.processing + c.ready + c.failed;

function EventPhotos({ eventKey, uploader }: { eventKey: string; uploader?: Uploader }) {
  const t = useAdminPhotosT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = parseState(params.get('state'));
  const page = parsePage(params.get('page'));

  const events = useAdminEvents();
  const shown: PhotoQuery = state ? { page, state } : { page };
  const photos = useAdminPhotos(eventKey, shown);

  // The frame sends a signed-out operator to sign in; meanwhile nothing here can work.
  const signedOut = isSignedOut(events.error) || isSignedOut(photos.error);

  const setView = useCallback(
    (next: { state?: PhotoState | null; page?: number }) => {
      const s = next.state === undefined ? state : next.state;
      const p = next.page ?? 1;
      const query = new URLSearchParams();
      if (s) query.set('state', s);
      if (p > 1) query.set('page', String(p));
      setParams(query);
    },
    [state, setParams],
  );

  const data = photos.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / Math.max(1, data.page_size))) : 1;
  // Deleting the last photo of the last page leaves the page empty: step back.
  useEffect(() => {
    if (data && !photos.isPlaceholderData && page > pageCount) setView({ page: pageCount });
  }, [data, photos.isPlaceholderData, page, pageCount, setView]);

  // Uploads finishing one after another refresh the counts at most once a second.
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  const refreshNow = useCallback(() => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    void client.invalidateQueries({ queryKey: photoKeys.event(eventKey) });
    void client.invalidateQueries({ queryKey: adminKeys.events });
  }, [client, eventKey]);
  const refreshSoon = useCallback(() => {
    if (timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: photoKeys.event(eventKey) });
    }, UPLOAD_REFRESH_MS);
  }, [client, eventKey]);

  const title = events.data?.events.find((e) => e.event_key === eventKey)?.title;
  // No access or no such event: nothing on the page can work. Other failures (a network
  // blip while polling) leave the page, and above all the running uploads, in place.
  const fatal = [events.error, photos.error].find((e) => e instanceof ApiFailure && (e.status === 403 || e.status === 404));
  const passing = photos.error && !isSignedOut(photos.error) ? photos.error : null;

  return (
    <section className="page admin-photos stack">
      <p className="admin-photos-back">
        <Link to="/admin/events">{t('adminPhotos.backToEvents')}</Link>
      </p>
      <header className="admin-photos-head">
        <h1>{title ?? t('adminPhotos.title')}</h1>
        <p className="muted">{t('adminPhotos.eventKey', { key: eventKey })}</p>
      </header>

      {signedOut ? (
        <Spinner label={t('adminPhotos.loading')} />
      ) : fatal ? (
        <ErrorAlert error={fatal} />
      ) : (
        <>
          <UploadPanel eventKey={eventKey} uploader={uploader} onUploaded={refreshSoon} onIdle={refreshNow} />

          {passing && <ErrorAlert error={passing} />}
          {data ? (
            <IngestProgress counts={data.counts} live={data.counts.queued + data.counts.processing > 0} />
          ) : (
            !passing && <Spinner label={t('adminPhotos.loading')} />
          )}

          {data && (
            <section className="admin-photos-grid-section stack" aria-labelledby="admin-photos-grid-heading">
              <div className="row admin-photos-grid-head">
                <h2 id="admin-photos-grid-heading">{t('adminPhotos.grid.heading')}</h2>
                <span className="muted">{t('adminPhotos.grid.total', { total: data.total })}</span>
              </div>
              <div className="admin-tabs" role="group" aria-label={t('adminPhotos.filter')}>
                <button
                  type="button"
                  className={`admin-tab${state === null ? ' admin-tab-active' : ''}`}
                  aria-pressed={state === null}
                  data-filter="all"
                  onClick={() => setView({ state: null })}
                >
                  {t('adminPhotos.state.all')} ({sum(data.counts)})
                </button>
                {PHOTO_STATES.map((s) => (
                  <button
                    key={s}
                    type="button"
                    className={`admin-tab${state === s ? ' admin-tab-active' : ''}`}
                    aria-pressed={state === s}
                    data-filter={s}
                    onClick={() => setView({ state: s })}
                  >
                    {t(`adminPhotos.state.${s}`)} ({data.counts[s]})
                  </button>
                ))}
              </div>

              {data.photos.length === 0 ? (
                <p className="muted">{state ? t('adminPhotos.grid.empty') : t('adminPhotos.ingest.empty')}</p>
              ) : (
                <ul className="admin-photo-grid" aria-busy={photos.isPlaceholderData}>
                  {data.photos.map((photo) => (
                    <PhotoCard key={photo.id} photo={photo} eventKey={eventKey} />
                  ))}
                </ul>
              )}
              <AdminPagination
                page={page}
                total={data.total}
                pageSize={data.page_size}
                onChange={(p) => setView({ page: p })}
              />
            </section>
          )}
        </>
      )}
    </section>
  );
}
