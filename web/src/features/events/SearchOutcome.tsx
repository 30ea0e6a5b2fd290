//! What a search came to, shown alike on the event pages and the manual search page: the
//! count of photos found (of which bib), the not-found notice (its words for a selfie without
//! a face, a selfie not found, a group never all on one photo, a bib no photo carries), a
//! bib the event's rule refused, and a search that failed (which step, and whose selfie).

import { ApiFailure, failureCode } from '@/api/client';
import { useErrorText } from '@/i18n/errors';
import { CONTACT } from '@/lib/constants';
import { personOfField, usePersonName } from './PeopleChips';
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

/** A failed search: the step that failed and the server's reason; a group search refused
 * for one person's selfie (no face in it) names that person. */
export function SearchError({ state }: { state: Extract<PhotoSearchState, { phase: 'error' }> }) {
  const t = useT();
  const errorText = useErrorText();
  const personName = usePersonName();
  const person = state.error instanceof ApiFailure ? personOfField(state.error.field) : null;
  return (
    <div className="alert alert-danger" role="alert" data-testid="search-error">
      <strong>{t(state.failed === 'search' ? 'event.search.failed' : 'event.search.error')}</strong>
      {state.error !== null && (
        <div>
          {person !== null && <span data-testid="search-error-person">{personName(person)}: </span>}
          {errorText(state.error)}
        </div>
      )}
    </div>
  );
}
