//! The face upload area: a real file input (styled as a button), the upload's percent and
//! the searching spinner. The input is emptied at once, so the same file can be chosen again
//! and a cancelled confirmation leaves no file behind. Below it, "search with friends" starts
//! a group search, whose panel (`group`) then stands in for the single selfie button.

import { useId, type ChangeEvent, type ReactNode } from 'react';
import { Spinner } from '@/components/Spinner';
import type { PhotoSearchState } from './usePhotoSearch';
import { useT } from './messages';

type Props = {
  state: PhotoSearchState;
  busy: boolean;
  onFile: (file: File) => void;
  /** Starts a group search; without it, none is offered. */
  onAddFriend?: () => void;
  /** The group search's panel, while the visitor searches with friends. */
  group?: ReactNode;
};

export function SelfieUpload({ state, busy, onFile, onAddFriend, group }: Props) {
  const t = useT();
  const id = useId();
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) onFile(file);
  };
  return (
    <section className="card selfie-upload stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('event.upload.title')}</h2>
      <p className="muted">{t('event.upload.help')}</p>
      {group ?? (
        <>
          <label className={`btn btn-primary btn-block upload-button${busy ? ' disabled' : ''}`} htmlFor={`${id}-input`}>
            <input
              id={`${id}-input`}
              type="file"
              accept="image/jpeg,image/png"
              className="visually-hidden"
              data-testid="selfie-input"
              disabled={busy}
              onChange={onChange}
            />
            {t('event.upload.choose')}
          </label>
          {onAddFriend && (
            <button
              type="button"
              className="btn btn-secondary btn-block"
              data-testid="add-friend"
              disabled={busy}
              onClick={onAddFriend}
            >
              {t('event.group.start')}
            </button>
          )}
        </>
      )}
      {state.phase === 'uploading' && (
        <div className="upload-progress" data-testid="upload-progress">
          <progress max={100} value={state.percent} aria-label={t('event.upload.uploading', { percent: state.percent })} />
          <span>{t('event.upload.uploading', { percent: state.percent })}</span>
        </div>
      )}
      {state.phase === 'searching' && state.by === 'face' && (
        <div data-testid="search-spinner">
          <Spinner label={t('event.upload.searching')} />
        </div>
      )}
    </section>
  );
}
