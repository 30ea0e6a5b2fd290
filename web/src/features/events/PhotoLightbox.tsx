//! The full-screen viewer for event photos, loaded only when a photo is first opened so
//! its code stays out of the page's first JavaScript. Slides are the watermarked previews.

import { lazy, Suspense } from 'react';
import type { PhotoBody } from '@/api/types';
import { useT } from './messages';

const Lightbox = lazy(() => import('@/components/Lightbox'));

type Props = { photos: PhotoBody[]; index: number | null; onClose: () => void };

export function PhotoLightbox({ photos, index, onClose }: Props) {
  const t = useT();
  if (index === null) return null;
  return (
    <Suspense fallback={null}>
      <Lightbox
        open
        index={index}
        onClose={onClose}
        slides={photos.map((p) => ({ src: p.preview_url, alt: t('event.photoAlt', { id: p.id }) }))}
      />
    </Suspense>
  );
}
