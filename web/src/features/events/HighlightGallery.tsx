//! The event's sample photos in a masonry, shown while no face search has been done.

import { useState } from 'react';
import { Masonry } from '@/components/Masonry';
import { Spinner } from '@/components/Spinner';
import { thumbnailProps } from '@/components/thumbnail';
import { PhotoLightbox } from './PhotoLightbox';
import { useEventQuery, useHighlight } from './api';
import { useT } from './messages';

export function HighlightGallery({ eventKey }: { eventKey: string }) {
  const t = useT();
  const { data, isPending, isError } = useHighlight(eventKey, true);
  const [open, setOpen] = useState<number | null>(null);
  const frameUrl = useEventQuery(eventKey).data?.frame_url ?? undefined;
  if (isError) return null;
  return (
    <section className="stack" data-testid="highlight-gallery" aria-labelledby="highlight-title">
      <h2 id="highlight-title">{t('event.highlight')}</h2>
      {isPending ? (
        <Spinner label={t('loading')} />
      ) : data.length === 0 ? (
        <p className="muted">{t('event.highlightEmpty')}</p>
      ) : (
        <Masonry>
          {data.map((photo, i) => (
            <button
              key={photo.id}
              type="button"
              className="highlight-photo"
              data-testid="highlight-photo"
              aria-label={t('event.openPhoto', { id: photo.id })}
              onClick={() => setOpen(i)}
            >
              <span className="framed">
                <img src={photo.thumbnail_url} alt={t('event.photoAlt', { id: photo.id })} {...thumbnailProps(i)} />
                {frameUrl && <img className="photo-frame" src={frameUrl} alt="" aria-hidden="true" />}
              </span>
            </button>
          ))}
        </Masonry>
      )}
      {data && <PhotoLightbox photos={data} index={open} onClose={() => setOpen(null)} frameUrl={frameUrl} />}
    </section>
  );
}
