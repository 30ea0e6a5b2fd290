//! What the page learns from the server that served it: the client token every API call
//! carries (spec §6), written into index.html by `raceshot serve`.

const PLACEHOLDER = '__RACESHOT_CLIENT_TOKEN__';

/** The development server's token when the page was not served by `raceshot serve`. */
const DEV_TOKEN = 'demo-client-token';

export function clientToken(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="raceshot-client-token"]');
  const value = meta?.content ?? '';
  return value === '' || value === PLACEHOLDER ? DEV_TOKEN : value;
}
