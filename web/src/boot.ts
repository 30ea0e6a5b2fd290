//! The page's first script, a few hundred bytes fetched beside the app's entry (its own
//! entry in vite.config.ts, loaded `async` so it runs as soon as it arrives): it reads the
//! answers `raceshot serve` embedded in the page and starts the download of the first page's
//! largest picture on a phone right away. On a slow network that picture is most of the
//! largest paint's wait, and without this it would start only once the app's 90 KB entry
//! has arrived and run. (The page's CSP forbids inline scripts, hence a file.) It imports
//! nothing, so that it stays one small file; src/lib/firstPaint.ts tells the app when the
//! picture has arrived.

/** The `<link rel="preload">` this adds, found by src/lib/firstPaint.ts. */
export const FIRST_PAINT_LINK_ID = 'raceshot-first-paint';
/** Set on that link once the picture has arrived (or failed). */
export const FIRST_PAINT_DONE = 'done';

type Cover = { coverurl?: unknown };
type Embedded = { events?: { body?: Cover[] }; event?: Cover; banners?: { body?: { image_url?: unknown }[] } };

const picture = (url: unknown) => (typeof url === 'string' && url !== '' ? url : undefined);

/** The picture the first page paints largest on a phone: on the home page the first event's
 * cover (one card per row, taller than the 3:1 banner above it), or the first banner when
 * that event has no cover; on an event page, the event's cover. Anything unexpected in the
 * embedded answers means none. */
export function firstPaintImage(text: string): string | undefined {
  try {
    const data = JSON.parse(text) as Embedded | null;
    if (data?.event) return picture(data.event.coverurl);
    return picture(data?.events?.body?.[0]?.coverurl) ?? picture(data?.banners?.body?.[0]?.image_url);
  } catch {
    return undefined;
  }
}

const url = firstPaintImage(document.getElementById('raceshot-preload')?.textContent ?? '');
if (url !== undefined) {
  const link = document.createElement('link');
  link.id = FIRST_PAINT_LINK_ID;
  link.rel = 'preload';
  link.as = 'image';
  link.href = url;
  link.fetchPriority = 'high';
  const done = () => link.setAttribute(`data-${FIRST_PAINT_DONE}`, '');
  link.addEventListener('load', done);
  link.addEventListener('error', done);
  document.head.appendChild(link);
}
