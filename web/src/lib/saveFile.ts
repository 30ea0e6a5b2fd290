//! Handing a file to the browser's own download: a file made in the page (a ZIP, a list of
//! codes) or an address the browser fetches itself. Both fire a `download` event, which
//! automation waits for.

import { ZIP_URL_REVOKE_MS } from './constants';

/** Saves `blob` as `fileName`. */
export function saveFile(blob: Blob, fileName: string) {
  const address = URL.createObjectURL(blob);
  clickDownload(address, fileName);
  // The browser reads the object address after the click returns: freed only a while later.
  window.setTimeout(() => URL.revokeObjectURL(address), ZIP_URL_REVOKE_MS);
}

/** Lets the browser download `address` itself, saving it as `fileName`. */
export function clickDownload(address: string, fileName: string) {
  const a = document.createElement('a');
  a.href = address;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
