//! The group search panel, in place of the single selfie button once the visitor chooses
//! "search with friends": a chip per person (thumbnail, name, ×), a file input adding the
//! next person (the visitor first, then friends, three people in all), the "all of us
//! together" switch once there are two or more, the search button, and a way back to
//! searching alone. The input is emptied at once, like the single one.

import { useId, type ChangeEvent } from 'react';
import { MAX_PEOPLE, type GroupSelfie } from './useGroupSelfies';
import { usePersonName } from './PeopleChips';
import { useT } from './messages';

type Props = {
  selfies: GroupSelfie[];
  matchAll: boolean;
  busy: boolean;
  onAdd: (file: File) => void;
  onRemove: (id: number) => void;
  onMatchAll: (all: boolean) => void;
  onSearch: () => void;
  onCancel: () => void;
};

export function GroupSelfies({ selfies, matchAll, busy, onAdd, onRemove, onMatchAll, onSearch, onCancel }: Props) {
  const t = useT();
  const id = useId();
  const name = usePersonName();
  const full = selfies.length >= MAX_PEOPLE;
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) onAdd(file);
  };
  return (
    <div className="group-selfies stack" data-testid="group-panel">
      <p className="muted">{t('event.group.help', { max: MAX_PEOPLE })}</p>
      {selfies.length > 0 && (
        <ul className="selfie-chips" data-testid="selfie-chips">
          {selfies.map((s, i) => (
            <li key={s.id} className="selfie-chip" data-testid="selfie-chip">
              {s.url !== '' && <img src={s.url} alt="" className="selfie-chip-thumb" data-testid="selfie-chip-thumb" />}
              <span className="selfie-chip-name">{name(i)}</span>
              <button
                type="button"
                className="selfie-chip-remove"
                data-testid="selfie-chip-remove"
                aria-label={t('event.group.remove', { name: name(i) })}
                disabled={busy}
                onClick={() => onRemove(s.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {!full && (
        <label className={`btn btn-secondary btn-block upload-button${busy ? ' disabled' : ''}`} htmlFor={`${id}-input`}>
          <input
            id={`${id}-input`}
            type="file"
            accept="image/jpeg,image/png"
            className="visually-hidden"
            data-testid="group-input"
            disabled={busy}
            onChange={onChange}
          />
          {selfies.length === 0 ? t('event.group.chooseMine') : t('event.group.addFriend')}
        </label>
      )}
      {full && <p className="muted" data-testid="group-full">{t('event.group.full', { max: MAX_PEOPLE })}</p>}
      {selfies.length > 1 && (
        <label className="group-match">
          <input
            type="checkbox"
            role="switch"
            data-testid="match-all"
            checked={matchAll}
            disabled={busy}
            onChange={(e) => onMatchAll(e.target.checked)}
          />
          <span>{t('event.group.all')}</span>
        </label>
      )}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="group-search"
          disabled={busy || selfies.length === 0}
          onClick={onSearch}
        >
          {selfies.length > 1 ? t('event.group.search', { count: selfies.length }) : t('event.group.searchOne')}
        </button>
        <button type="button" className="btn btn-secondary" data-testid="group-cancel" disabled={busy} onClick={onCancel}>
          {t('event.group.cancel')}
        </button>
      </div>
    </div>
  );
}
