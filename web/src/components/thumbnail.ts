//! How the grids and galleries load photo thumbnails (400 px on the long edge, most often
//! landscape 4:3): a reserved size so nothing moves when they arrive, the first few at once
//! (on a phone they are above the fold, and one of them is often the largest paint), the
//! rest lazily and decoded off the main thread, fetched only when scrolled near.

/** Thumbnails a phone shows before any scrolling: two columns, two rows. */
export const EAGER_THUMBNAILS = 4;

type ThumbnailProps = {
  width: number;
  height: number;
  loading: 'eager' | 'lazy';
  decoding: 'auto' | 'async';
};

/** `<img>` attributes for the thumbnail at `index` of a grid. The width and height give the
 * ratio the browser reserves until the file says otherwise (styles set `height: auto`). */
export function thumbnailProps(index: number): ThumbnailProps {
  const eager = index < EAGER_THUMBNAILS;
  return { width: 400, height: 300, loading: eager ? 'eager' : 'lazy', decoding: eager ? 'auto' : 'async' };
}
