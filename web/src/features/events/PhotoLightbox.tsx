//! The full-screen viewer for event photos, loaded only when a photo is first opened so
//! its code stays out of the page's first JavaScript. Slides are the watermarked previews,
//! with the event's sponsor frame over them when it has one.

import { lazy, Suspense } from 'react';
import type { PhotoBody } from '@/api/types';
import { useT } from './messages';

const Lightbox = lazy(() => import('@/components/Lightbox'));

type Props = { photos: PhotoBody[]; index: number | null; onClose: () => void; frameUrl?: string };

export function PhotoLightbox({ photos, index, onClose, frameUrl }: Props) {
  const t = useT();
  if (index === null) return null;
  return (
    <Suspense fallback={null}>
      <Lightbox
        open
        index={index}
        onClose={onClose}
        frameUrl={frameUrl}
        slides={photos.map((p) => ({ src: p.preview_url, alt: t('event.photoAlt', { id: p.id }) }))}
      />
    </Suspense>
  );
}
