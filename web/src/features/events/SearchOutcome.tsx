//! What a search came to, shown alike on the event pages and the manual search page: the
//! count of photos found (of which bib), the not-found notice (its words for a selfie without
//! a face, a selfie not found, a group never all on one photo, a bib no photo carries), and a
//! bib the event's rule refused.

import { failureCode } from '@/api/client';
import { CONTACT } from '@/lib/constants';
import type { PhotoSearchState } from './usePhotoSearch';
import { useT } from './messages';

/** A bib the event's rule refuses is told beside the bib field rather than as a failed
 * search: the refusal, or null. */
export function refusedBib(state: PhotoSearchState): unknown {
  return state.phase === 'error' && state.by === 'bib' && failureCode(state.error) === 'invalid_bib' ? state.error : null;
}

/** Nothing found: a selfie without a face, a selfie of someone not in the photos, or a bib
 * no photo carries (yet: photos are still being read while the event is new). */
export function NotFound({ noFace, bib, all = false }: { noFace: boolean; bib: string | null; all?: boolean }) {
  const t = useT();
  return (
    <div className="alert alert-info" data-testid="search-not-found">
      <strong>{bib !== null ? t('event.bib.notFound') : noFace ? t('event.search.noFace') : t('event.search.notFound')}</strong>
      {all && <div data-testid="search-not-found-all">{t('event.group.notFoundAll')}</div>}
      <div>
        {bib !== null ? t('event.bib.notFoundHelp', { line: CONTACT.line }) : t('event.search.notFoundHelp', { line: CONTACT.line })}
      </div>
    </div>
  );
}

/** How many photos are shown, and of which bib when a bib was searched. */
export function FoundCount({ count, bib }: { count: number; bib: string | null }) {
  const t = useT();
  return (
    <strong data-testid="search-count">
      {bib !== null ? t('event.bib.found', { count, bib }) : t('event.search.found', { count })}
    </strong>
  );
}
