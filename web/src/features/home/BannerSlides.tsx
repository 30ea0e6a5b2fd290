//! The home banners without the carousel's code: one slide per banner linking where it says,
//! laid out as the carousel lays them out (only the first in view). A single banner needs
//! nothing more; with several, this is what shows until the carousel's chunk has loaded, so
//! the first banner (often the page's largest paint) never waits for that code.

import { Link } from 'react-router';
import type { BannerBody } from '@/api/types';
import { useMayLoadPicture } from '@/lib/firstPaint';
import { useT } from './messages';

/** In-app paths go through the router (no page reload); `//host` is another site. */
const isInternal = (url: string) => url.startsWith('/') && !url.startsWith('//');

/** An empty picture (transparent GIF) holding a banner's place while it waits. */
const WAITING = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export function Slide({ banner, index, count }: { banner: BannerBody; index: number; count: number }) {
  const t = useT();
  const label = t('home.banner', { n: index + 1, count });
  // On a phone the first event's cover, when it has one, is the largest paint: the banner
  // then starts after it (src/lib/firstPaint.ts), in its reserved 3:1 box.
  const ready = useMayLoadPicture(banner.image_url);
  // The first slide is what the visitor sees at once: fetched first; later ones wait until
  // scrolled in.
  const img = (
    <img
      src={ready ? banner.image_url : WAITING}
      alt={label}
      width={1200}
      height={400}
      loading={index === 0 ? 'eager' : 'lazy'}
      fetchPriority={index === 0 ? 'high' : 'auto'}
      decoding={index === 0 ? 'auto' : 'async'}
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

/** The banners side by side in the carousel's frame, without motion or arrows. */
export function BannerStrip({ banners }: { banners: BannerBody[] }) {
  const t = useT();
  return (
    <section className="banner-carousel" aria-label={t('home.banners')}>
      <div className="banner-viewport">
        <div className="banner-track">
          {banners.map((b, i) => (
            <Slide key={`${i}-${b.image_url}`} banner={b} index={i} count={banners.length} />
          ))}
        </div>
      </div>
    </section>
  );
}
