//! The home banner carousel: loops, autoplays every 3 s and keeps playing
//! after the visitor swipes or presses an arrow; each slide links where its banner says.
//! Its own chunk, loaded only when there are several banners (the carousel library is
//! 8 KB of the home page's download).

import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback } from 'react';
import type { BannerBody } from '@/api/types';
import { CAROUSEL_AUTOPLAY_MS } from '@/lib/constants';
import { Slide } from './BannerSlides';
import { useT } from './messages';

export default function BannerCarousel({ banners }: { banners: BannerBody[] }) {
  const t = useT();
  const [viewportRef, embla] = useEmblaCarousel({ loop: true }, [
    Autoplay({ delay: CAROUSEL_AUTOPLAY_MS, stopOnInteraction: false }),
  ]);
  // An arrow press restarts the 3 s count so the next slide does not jump in right away.
  const go = useCallback(
    (dir: -1 | 1) => {
      if (!embla) return;
      if (dir < 0) embla.scrollPrev();
      else embla.scrollNext();
      embla.plugins().autoplay?.reset();
    },
    [embla],
  );
  return (
    <section className="banner-carousel" aria-roledescription="carousel" aria-label={t('home.banners')}>
      <div className="banner-viewport" ref={viewportRef}>
        <div className="banner-track">
          {banners.map((b, i) => (
            <Slide key={`${i}-${b.image_url}`} banner={b} index={i} count={banners.length} />
          ))}
        </div>
      </div>
      {banners.length > 1 && (
        <>
          <button
            type="button"
            className="banner-arrow banner-prev"
            aria-label={t('home.bannerPrevious')}
            onClick={() => go(-1)}
          >
            ‹
          </button>
          <button
            type="button"
            className="banner-arrow banner-next"
            aria-label={t('home.bannerNext')}
            onClick={() => go(1)}
          >
            ›
          </button>
        </>
      )}
    </section>
  );
}
