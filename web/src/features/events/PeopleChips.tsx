//! Who is who in a group search: the visitor is "ฉัน / Me", the others "เพื่อน 1 / Friend 1"
//! and so on, in the order their selfies were added (the order the server's `people`
//! indices follow). A result card of a group search shows the people the photo shows.

import { useT } from './messages';

/** The name of the person at a 0-based index of a group search. */
export function usePersonName(): (index: number) => string {
  const t = useT();
  return (index) => (index === 0 ? t('event.group.me') : t('event.group.friend', { n: index }));
}

/** The index of the person a refused group search names (`file[i]`: the i-th selfie;
 * `search_ids[i]`: the i-th friend's upload), or null when it names none. */
export function personOfField(field: string | null): number | null {
  if (field === null) return null;
  const m = /^(file|search_ids)\[(\d+)\]$/.exec(field);
  if (!m) return null;
  return Number(m[2]) + (m[1] === 'search_ids' ? 1 : 0);
}

export function PeopleChips({ people }: { people: readonly number[] }) {
  const t = useT();
  const name = usePersonName();
  if (people.length === 0) return null;
  return (
    <ul className="people-chips" data-testid="people-chips" aria-label={t('event.group.shows')}>
      {[...people]
        .sort((a, b) => a - b)
        .map((i) => (
          <li key={i} className={`person-chip person-chip-${String(i)}`} data-testid="person-chip" data-person={i}>
            {name(i)}
          </li>
        ))}
    </ul>
  );
}
