//! The face upload area: a real file input (styled as a button), the upload's percent and
//! the searching spinner. The input is emptied at once, so the same file can be chosen again
//! and a cancelled confirmation leaves no file behind.

import { useId, type ChangeEvent } from 'react';
import { Spinner } from '@/components/Spinner';
import type { FaceSearchState } from './useFaceSearch';
import { useT } from './messages';

type Props = { state: FaceSearchState; busy: boolean; onFile: (file: File) => void };

export function SelfieUpload({ state, busy, onFile }: Props) {
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
      {state.phase === 'uploading' && (
        <div className="upload-progress" data-testid="upload-progress">
          <progress max={100} value={state.percent} aria-label={t('event.upload.uploading', { percent: state.percent })} />
          <span>{t('event.upload.uploading', { percent: state.percent })}</span>
        </div>
      )}
      {state.phase === 'searching' && (
        <div data-testid="search-spinner">
          <Spinner label={t('event.upload.searching')} />
        </div>
      )}
    </section>
  );
}
