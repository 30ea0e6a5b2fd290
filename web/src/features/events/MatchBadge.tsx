//! The small badge on a search's result, how the photo was found: by a bib search, by the
//! bib number read on it or by the same runner's face where the bib is hidden; by a face
//! search, by sequence (the face is a little short of the threshold, beside a photo of the
//! runner the same photographer took moments apart). Nothing for an outright face match.

import type { MatchedBy } from '@/api/types';
import { useT } from './messages';

const LABELS = {
  bib: ['event.match.bib', 'event.match.bibTitle'],
  face: ['event.match.face', 'event.match.faceTitle'],
  sequence: ['event.match.sequence', 'event.match.sequenceTitle'],
} as const;

export function MatchBadge({ matchedBy }: { matchedBy: MatchedBy | null | undefined }) {
  const t = useT();
  if (!matchedBy) return null;
  const [label, title] = LABELS[matchedBy];
  return (
    <span
      className={`match-badge match-badge-${matchedBy}`}
      data-testid="match-badge"
      data-matched-by={matchedBy}
      title={t(title)}
    >
      {t(label)}
    </span>
  );
}
