//! How far the server is with the event's photos: one bar split by state, and the numbers.

import type { PhotoCounts } from './api';
import { useAdminPhotosT } from './i18n';
import { INGEST_POLL_MS } from './polling';
import { PHOTO_STATES } from './states';

export function IngestProgress({ counts, live }: { counts: PhotoCounts; live: boolean }) {
  const t = useAdminPhotosT();
  const total = counts.queued + counts.processing + counts.ready + counts.failed;
  const finished = counts.ready + counts.failed;
  const share = (n: number) => (total === 0 ? 0 : (n * 100) / total);
  return (
    <section className="card admin-ingest" data-testid="ingest-progress" data-live={live ? 'true' : 'false'}>
      <h2>{t('adminPhotos.ingest.heading')}</h2>
      {total === 0 ? (
        <p className="muted">{t('adminPhotos.ingest.empty')}</p>
      ) : (
        <>
          <div
            className="admin-ingest-bar"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={finished}
            aria-label={t('adminPhotos.ingest.bar', { finished, total })}
          >
            {/* Finished states first, so the bar fills from the left as work completes. */}
            {(['ready', 'failed', 'processing', 'queued'] as const).map((state) =>
              counts[state] > 0 ? (
                <span key={state} className={`admin-ingest-part admin-state-${state}`} style={{ width: `${share(counts[state])}%` }} />
              ) : null,
            )}
          </div>
          <p className="admin-ingest-caption">{t('adminPhotos.ingest.bar', { finished, total })}</p>
        </>
      )}
      <ul className="admin-ingest-counts">
        {PHOTO_STATES.map((state) => (
          <li key={state} className={`admin-ingest-count admin-state-text-${state}`}>
            <span className={`admin-dot admin-state-${state}`} aria-hidden="true" />
            <span>{t(`adminPhotos.state.${state}`)}</span> <strong data-count={state}>{counts[state]}</strong>
          </li>
        ))}
      </ul>
      {live && <p className="muted admin-ingest-live">{t('adminPhotos.ingest.live', { seconds: INGEST_POLL_MS / 1000 })}</p>}
    </section>
  );
}
