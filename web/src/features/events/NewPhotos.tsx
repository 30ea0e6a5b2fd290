//! "New photos since you searched": after a search (found or not), the page asks the server
//! once a minute how many of the event's photos became searchable since the search's moment,
//! and when there are some, says so with a button to search again the same way (the same
//! selfie or bib, nothing to choose). Race morning: photos keep arriving after a runner's
//! first search. The server answers a count only; it keeps nothing of the search.

import { useQuery } from '@tanstack/react-query';
import { fetchArrivals } from './api';
import { useT } from './messages';

/** How often the page asks, in milliseconds. */
export const ARRIVALS_POLL_MS = 60_000;

type Props = {
  eventKey: string;
  /** The search's moment on the server's clock. */
  since: number;
  /** Searches again; null when the page no longer holds the selfie (after a reload). */
  onAgain: (() => void) | null;
};

export function NewPhotos({ eventKey, since, onAgain }: Props) {
  const t = useT();
  const arrivals = useQuery({
    queryKey: ['arrivals', eventKey, since],
    queryFn: () => fetchArrivals(eventKey, since),
    refetchInterval: ARRIVALS_POLL_MS,
    retry: false,
  });
  const count = arrivals.data?.new_photos ?? 0;
  if (count === 0) return null;
  return (
    <div className="alert alert-info row new-photos" role="status" data-testid="new-photos">
      <span>{t('event.newPhotos', { count: count.toLocaleString() })}</span>
      {onAgain === null ? (
        <span className="muted">{t('event.newPhotos.chooseAgain')}</span>
      ) : (
        <button type="button" className="btn btn-primary btn-small" onClick={onAgain}>
          {t('event.newPhotos.again')}
        </button>
      )}
    </div>
  );
}
