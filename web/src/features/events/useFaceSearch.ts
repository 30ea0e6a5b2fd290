//! The face search of spec §4: idle → uploading (percent) → searching → found / not found /
//! error. Three calls: sign an upload, PUT the selfie, search. Found results are kept as the
//! latest search so they are back when the visitor returns from the cart. A photo the
//! visitor dismisses ("not me") leaves the results and the kept search; dismissing the last
//! one goes back to idle with no search kept. An error says which step failed, as spec §8
//! words them apart: the upload (signing, the PUT, or no answer at all), or the search
//! itself answering anything but success.

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiFailure } from '@/api/client';
import type { EventBody, PhotoBody, SearchResponse } from '@/api/types';
import { readLatestSearch, writeLatestSearch } from '@/lib/cart';
import { searchFaces, signSelfie } from './api';
import { putWithProgress, type Uploader } from './upload';

export type FaceSearchState =
  | { phase: 'idle' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'searching' }
  | { phase: 'found'; images: PhotoBody[]; avgPrice: number }
  | { phase: 'notFound'; noFace: boolean }
  /** `error` is the failure to translate, or null when the search only said it failed. */
  | { phase: 'error'; failed: 'upload' | 'search'; error: unknown };

/** The search call answered, and not with success. */
class SearchFailed extends Error {
  readonly detail: ApiFailure | null;

  constructor(detail: ApiFailure | null) {
    super(detail?.message ?? 'search did not succeed');
    this.name = 'SearchFailed';
    this.detail = detail;
  }
}

function restore(eventKey: string, wholesale: boolean): FaceSearchState {
  const latest = readLatestSearch(eventKey, wholesale);
  return latest && latest.images.length > 0
    ? { phase: 'found', images: latest.images, avgPrice: latest.avg_price }
    : { phase: 'idle' };
}

/** Keeps found photos as the event's latest search, or forgets it when none are left. */
function remember(eventKey: string, wholesale: boolean, images: PhotoBody[], avgPrice: number) {
  writeLatestSearch(images.length > 0 ? { event_key: eventKey, wholesale, images, avg_price: avgPrice } : null);
}

export function useFaceSearch(event: EventBody, wholesale: boolean, upload: Uploader = putWithProgress) {
  const [state, setState] = useState<FaceSearchState>(() => restore(event.event_key, wholesale));

  const mutation = useMutation({
    mutationFn: async (file: File): Promise<SearchResponse> => {
      const signed = await signSelfie(event, file);
      await upload(signed.url, file, (percent) => setState({ phase: 'uploading', percent }));
      setState({ phase: 'searching' });
      const found = await searchFaces(event, signed).catch((e: unknown) => {
        // An answer of the search (busy, sale closed…) is the search's failure; no answer at
        // all is the network's, told like an upload failure.
        throw e instanceof ApiFailure && e.code !== 'network' ? new SearchFailed(e) : e;
      });
      if (found.status !== 'success') throw new SearchFailed(null);
      return found;
    },
    onSuccess: (found) => {
      if (found.image_length > 0 && found.images.length > 0) {
        remember(event.event_key, wholesale, found.images, found.avg_price);
        setState({ phase: 'found', images: found.images, avgPrice: found.avg_price });
      } else {
        setState({ phase: 'notFound', noFace: found.reason === 'no_face' });
      }
    },
    onError: (error) =>
      setState(
        error instanceof SearchFailed
          ? { phase: 'error', failed: 'search', error: error.detail }
          : { phase: 'error', failed: 'upload', error },
      ),
  });

  const start = (file: File) => {
    // Earlier results go away while a search runs (spec §4).
    writeLatestSearch(null);
    setState({ phase: 'uploading', percent: 0 });
    mutation.mutate(file);
  };

  /** "Not me": the photo leaves the results and the kept search; without photos left, the
   * search is over (idle, nothing kept). The server's average price was for the photos it
   * found, so it is dropped (0: not known) rather than shown for fewer photos. */
  const dismiss = (photoId: number) => {
    if (state.phase !== 'found') return;
    const images = state.images.filter((p) => p.id !== photoId);
    remember(event.event_key, wholesale, images, 0);
    setState(images.length > 0 ? { ...state, images, avgPrice: 0 } : { phase: 'idle' });
  };

  const busy = state.phase === 'uploading' || state.phase === 'searching';
  const images = state.phase === 'found' ? state.images : [];
  return { state, start, busy, images, dismiss };
}
