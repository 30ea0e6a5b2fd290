//! The home banner carousel (spec §2, §9): loops, autoplays every 3 s and keeps playing
//! after the visitor swipes or presses an arrow; each slide links where its banner says.

import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback } from 'react';
import { Link } from 'react-router';
import type { BannerBody } from '@/api/types';
import { useT } from '@/i18n';
import { CAROUSEL_AUTOPLAY_MS } from '@/lib/constants';

/** In-app paths go through the router (no page reload); `//host` is another site. */
const isInternal = (url: string) => url.startsWith('/') && !url.startsWith('//');

function Slide({ banner, index, count }: { banner: BannerBody; index: number; count: number }) {
  const t = useT();
  const label = t('home.banner', { n: index + 1, count });
  // The first slide is what the visitor sees at once; later ones wait until scrolled in.
  const img = (
    <img
      src={banner.image_url}
      alt={label}
      width={1200}
      height={400}
      loading={index === 0 ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
  const url = banner.link_url.trim();
  let content = img;
  if (url && isInternal(url)) content = <Link to={url}>{img}</Link>;
  else if (url)
    content = (
      <a href={url} target="_blank" rel="noopener noreferrer">
        {img}
      </a>
    );
  return (
    <div className="banner-slide" role="group" aria-roledescription="slide" data-testid="banner-slide">
      {content}
    </div>
  );
}

export function BannerCarousel({ banners }: { banners: BannerBody[] }) {
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
