//! The event page's photo search, by a selfie or by a bib number, through one state
//! machine: idle → uploading (percent, selfies only) → searching → found / not found / error.
//! A selfie takes three calls (sign an upload, PUT the selfie, search); a group of two or
//! three people signs and PUTs each selfie in turn (the percent is over all of them), then
//! searches once for them all, `any` or `all` of them on a photo; a bib one
//! (`/v1/bibsearch`: the photos where the number was read, then those of the same runner's
//! face where the bib is hidden). Found results, whichever way, are kept as the latest
//! search so they are back when the visitor returns from the cart. A photo the visitor
//! dismisses ("not me") leaves the results and the kept search; dismissing the last one goes
//! back to idle with no search kept. Each search also takes the server's moment (`since`),
//! so the page can tell of photos that became searchable after it, and `again` searches
//! once more the same way: the same bib, or the same selfies, which stay in this tab's
//! memory only (never in the browser's storage; after a reload a face search needs its
//! selfie chosen again, and `again` is null). An error says which step failed, told
//! apart: the upload (signing, the PUT, or no answer at all), or the search itself answering
//! anything but success. A bib search has no upload: its every failure is the search's.

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiFailure } from '@/api/client';
import type { ShopEvent } from '@/api/event';
import type { BibSearchResponse, PhotoBody, SearchResponse } from '@/api/types';
import { readLatestSearch, writeLatestSearch } from '@/lib/cart';
import type { components } from '@/api/schema';
import { fetchArrivals, searchBib, searchFaces, signSelfie, type GroupMatch } from './api';
import { putWithProgress, type Uploader } from './upload';

type SignResponse = components['schemas']['SignResponse'];

/** How the visitor searched: with a selfie, or with the number on their bib. */
export type SearchBy = 'face' | 'bib';

/** What a search found, as shown and as kept. */
type Kept = {
  images: PhotoBody[];
  avgPrice: number;
  bib: string | null;
  people: number;
  foundRef: string | null;
  since: number | null;
};

export type PhotoSearchState =
  | { phase: 'idle' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'searching'; by: SearchBy }
  /** `bib` is the number searched for, or null for a selfie's results; `people` how many
   * people a group search looked for (1 for one selfie or a bib); `foundRef` the search's
   * reference for the all-photos deal (null for a search kept from before it existed);
   * `since` the server's moment of the search (null when not known). */
  | ({ phase: 'found' } & Kept)
  /** `all`: a group search for photos showing all of its people together. */
  | { phase: 'notFound'; noFace: boolean; bib: string | null; all?: boolean; since: number | null }
  /** `error` is the failure to translate, or null when the search only said it failed. */
  | { phase: 'error'; failed: 'upload' | 'search'; error: unknown; by: SearchBy };

/** The search call answered, and not with success. */
class SearchFailed extends Error {
  readonly detail: ApiFailure | null;

  constructor(detail: ApiFailure | null) {
    super(detail?.message ?? 'search did not succeed');
    this.name = 'SearchFailed';
    this.detail = detail;
  }
}

type Query = { by: 'face'; files: File[]; match: GroupMatch } | { by: 'bib'; bib: string };
type Answer = { found: SearchResponse | BibSearchResponse; bib: string | null; people: number; since: number | null };

/** The latest query of each event page (by event and cart) in this tab, to search again. */
const lastQueries = new Map<string, Query>();
const queryKey = (eventKey: string, wholesale: boolean) => `${wholesale ? 'w' : 's'}:${eventKey}`;

/** Forgets every page's latest query, as a reload does (for tests). */
export function forgetLatestQueries() {
  lastQueries.clear();
}

type Options = {
  /** Start from the event's kept search (the event pages), or from idle (the manual search
   * page, whose listing comes first). */
  restore?: boolean;
  /** Stands in for the real PUT in tests. */
  upload?: Uploader;
};

function restored(eventKey: string, wholesale: boolean): PhotoSearchState {
  const latest = readLatestSearch(eventKey, wholesale);
  return latest && latest.images.length > 0
    ? {
        phase: 'found',
        images: latest.images,
        avgPrice: latest.avg_price,
        bib: latest.bib ?? null,
        people: latest.people ?? 1,
        foundRef: latest.found_ref ?? null,
        since: latest.since ?? null,
      }
    : { phase: 'idle' };
}


/** Keeps found photos as the event's latest search, or forgets it when none are left. */
function remember(eventKey: string, wholesale: boolean, { images, avgPrice, bib, people, foundRef, since }: Kept) {
  writeLatestSearch(
    images.length > 0
      ? {
          event_key: eventKey,
          wholesale,
          images,
          avg_price: avgPrice,
          ...(bib === null ? {} : { bib }),
          ...(people > 1 ? { people } : {}),
          ...(foundRef ? { found_ref: foundRef } : {}),
          ...(since === null ? {} : { since }),
        }
      : null,
  );
}

/** Signs and PUTs each selfie in turn, telling the percent over all their bytes. */
async function uploadAll(event: ShopEvent, files: File[], upload: Uploader, onPercent: (percent: number) => void) {
  const total = files.reduce((sum, f) => sum + Math.max(f.size, 1), 0);
  let done = 0;
  const signed: SignResponse[] = [];
  for (const file of files) {
    const size = Math.max(file.size, 1);
    const one = await signSelfie(event, file);
    await upload(one.url, file, (percent) => onPercent(Math.min(100, Math.round(((done + (size * percent) / 100) * 100) / total))));
    done += size;
    signed.push(one);
  }
  return signed;
}

export function usePhotoSearch(event: ShopEvent, wholesale: boolean, { restore = true, upload = putWithProgress }: Options = {}) {
  const [state, setState] = useState<PhotoSearchState>(() =>
    restore ? restored(event.event_key, wholesale) : { phase: 'idle' },
  );

  const mutation = useMutation({
    mutationFn: async (query: Query): Promise<Answer> => {
      // The moment is asked before the search, so no photo made searchable meanwhile is
      // missed; without an answer, the page only does not tell of new photos.
      const mark = fetchArrivals(event.event_key).then(
        (a) => a.as_of,
        () => null,
      );
      if (query.by === 'bib') {
        const found = await searchBib(event.event_key, query.bib).catch((e: unknown) => {
          throw new SearchFailed(e instanceof ApiFailure ? e : null);
        });
        if (found.status !== 'success') throw new SearchFailed(null);
        return { found, bib: query.bib, people: 1, since: await mark };
      }
      const [first, ...others] = await uploadAll(event, query.files, upload, (percent) =>
        setState({ phase: 'uploading', percent }),
      );
      if (first === undefined) throw new SearchFailed(null);
      setState({ phase: 'searching', by: 'face' });
      const found = await searchFaces(event, first, others, query.match).catch((e: unknown) => {
        // An answer of the search (busy, sale closed…) is the search's failure; no answer at
        // all is the network's, told like an upload failure.
        throw e instanceof ApiFailure && e.code !== 'network' ? new SearchFailed(e) : e;
      });
      if (found.status !== 'success') throw new SearchFailed(null);
      return { found, bib: null, people: query.files.length, since: await mark };
    },
    onSuccess: ({ found, bib, people, since }, query) => {
      if (found.image_length > 0 && found.images.length > 0) {
        const kept = {
          images: found.images,
          avgPrice: found.avg_price,
          bib,
          people,
          foundRef: found.found_ref || null,
          since,
        };
        remember(event.event_key, wholesale, kept);
        setState({ phase: 'found', ...kept });
      } else {
        const all = query.by === 'face' && people > 1 && query.match === 'all';
        setState({
          phase: 'notFound',
          noFace: 'reason' in found && found.reason === 'no_face',
          bib,
          since,
          ...(all ? { all } : {}),
        });
      }
    },
    onError: (error, query) =>
      setState(
        error instanceof SearchFailed
          ? { phase: 'error', failed: 'search', error: error.detail, by: query.by }
          : { phase: 'error', failed: 'upload', error, by: query.by },
      ),
  });

  const begin = (query: Query) => {
    // Earlier results go away while a search runs.
    writeLatestSearch(null);
    lastQueries.set(queryKey(event.event_key, wholesale), query);
    setState(query.by === 'face' ? { phase: 'uploading', percent: 0 } : { phase: 'searching', by: 'bib' });
    mutation.mutate(query);
  };
  const start = (file: File) => begin({ by: 'face', files: [file], match: 'any' });
  /** Searches for a group: the visitor's selfie first, then each friend's (three at most). */
  const startGroup = (files: File[], match: GroupMatch) => begin({ by: 'face', files, match });
  /** Searches by the bib as typed (the server reads `A 0042` and `a42` as one bib). */
  const startBib = (bib: string) => begin({ by: 'bib', bib });

  /** "Not me": the photo leaves the results and the kept search; without photos left, the
   * search is over (idle, nothing kept). The server's average price was for the photos it
   * found, so it is dropped (0: not known) rather than shown for fewer photos. */
  const dismiss = (photoId: number) => {
    if (state.phase !== 'found') return;
    const images = state.images.filter((p) => p.id !== photoId);
    remember(event.event_key, wholesale, { ...state, images, avgPrice: 0 });
    setState(images.length > 0 ? { ...state, images, avgPrice: 0 } : { phase: 'idle' });
  };

  /** Leaves the results (the manual page's way back to its listing); nothing stays kept. */
  const reset = () => {
    writeLatestSearch(null);
    lastQueries.delete(queryKey(event.event_key, wholesale));
    setState({ phase: 'idle' });
  };

  /** Searches again the way the latest search did (its bib, or its selfies while this tab
   * still holds them); null when there is no such way. */
  const kept = lastQueries.get(queryKey(event.event_key, wholesale));
  const settled = state.phase === 'found' || state.phase === 'notFound';
  const bibAgain = settled && state.bib !== null ? state.bib : null;
  const again = !settled
    ? null
    : kept !== undefined
      ? () => begin(kept)
      : bibAgain !== null
        ? () => begin({ by: 'bib', bib: bibAgain })
        : null;

  const busy = state.phase === 'uploading' || state.phase === 'searching';
  const images = state.phase === 'found' ? state.images : [];
  return { state, start, startGroup, startBib, again, busy, images, dismiss, reset };
}
