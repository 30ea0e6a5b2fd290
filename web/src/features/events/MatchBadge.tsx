//! The small badge on a bib search's result: how the photo was found, by the bib number read
//! on it, or by the same runner's face where the bib is hidden. Nothing for a selfie's results.

import type { MatchedBy } from '@/api/types';
import { useT } from './messages';

export function MatchBadge({ matchedBy }: { matchedBy: MatchedBy | null | undefined }) {
  const t = useT();
  if (!matchedBy) return null;
  return (
    <span
      className={`match-badge match-badge-${matchedBy}`}
      data-testid="match-badge"
      data-matched-by={matchedBy}
      title={t(matchedBy === 'bib' ? 'event.match.bibTitle' : 'event.match.faceTitle')}
    >
      {t(matchedBy === 'bib' ? 'event.match.bib' : 'event.match.face')}
    </span>
  );
}
