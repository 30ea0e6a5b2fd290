//! Whether the first page's largest picture, whose download src/boot.ts started before the
//! app did, has arrived. Other pictures above the fold that would share the connection with
//! it (the home banner) wait until then: on a slow network the picture the visitor came for
//! is shown first, and the largest paint is not held back by bytes that are not part of it.

import { useSyncExternalStore } from 'react';

/** src/boot.ts's link (the same names; boot imports nothing and the app does not import it,
 * so that each stays in its own file; firstPaint.test.ts holds them equal). */
export const FIRST_PAINT_LINK_ID = 'raceshot-first-paint';
export const DONE_ATTRIBUTE = 'data-done';

/** The longest a waiting picture waits, should the largest one be slow or never end. */
const WAIT_AT_MOST_MS = 4_000;

let waiting: boolean | undefined;
/** The address of the picture being waited for. */
let largest = '';
const listeners = new Set<() => void>();

function finish() {
  if (waiting !== true) return;
  waiting = false;
  listeners.forEach((l) => l());
}

/** Looks once for the boot script's link: waiting while it exists and has not finished. */
function isWaiting(): boolean {
  if (waiting === undefined) {
    const link = document.getElementById(FIRST_PAINT_LINK_ID);
    waiting = link instanceof HTMLLinkElement && !link.hasAttribute(DONE_ATTRIBUTE);
    if (waiting && link instanceof HTMLLinkElement) {
      largest = link.href;
      link.addEventListener('load', finish);
      link.addEventListener('error', finish);
      window.setTimeout(finish, WAIT_AT_MOST_MS);
    }
  }
  return waiting;
}

/** Calls `listener` when waiting is over; returns how to stop. */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the picture at `url` may load now: not while the first page's largest picture
 * (another one) is still arriving; then always. */
export function mayLoadPicture(url: string): boolean {
  return !isWaiting() || new URL(url, window.location.href).href === largest;
}

/** `mayLoadPicture`, rendering again when the answer changes. */
export function useMayLoadPicture(url: string): boolean {
  return useSyncExternalStore(
    subscribe,
    () => mayLoadPicture(url),
    () => true,
  );
}
