//! The bib numbers of one console photo: a chip per bib (read ones with the reader's
//! confidence, added ones marked, taken-off ones struck through with "restore"), × on each
//! searchable one to take it off, and a small field to put a bib on by hand. Each change is
//! one `POST /api/admin/photos/{id}/bibs`; the photo list is asked again afterwards. A number
//! outside the event's bib rule is refused (422 `invalid_bib`) and said beside the field.

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { isSignedOut } from '../shell/session';
import { setPhotoBib, type AdminBib, type BibCorrection } from './api';
import { useAdminPhotosT } from './i18n';

type Props = {
  photoId: number;
  bibs: AdminBib[];
  /** Asks for the photo list again; resolves once the grid shows the change. */
  refresh: () => Promise<unknown>;
  /** Another action of the card is running. */
  disabled: boolean;
};

/** The reader's confidence as a whole percent. */
const percent = (confidence: number) => Math.round(confidence * 100);

export function PhotoBibs({ photoId, bibs, refresh, disabled }: Props) {
  const t = useAdminPhotosT();
  const errorText = useErrorText();
  const toast = useToast();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [addError, setAddError] = useState<string | null>(null);

  const correct = useMutation({
    mutationFn: (correction: BibCorrection) => setPhotoBib(photoId, correction),
    onSuccess: () => refresh(),
  });
  const busy = disabled || correct.isPending;

  /** Takes a bib off or restores it; a failure is told as a toast (a session that has
   * ended is the frame's business). */
  const change = (bib: string, present: boolean) =>
    correct.mutate(
      { bib, present },
      {
        onError: (e) => {
          if (!isSignedOut(e)) toast.error(errorText(e));
        },
      },
    );

  const add = (e: SyntheticEvent) => {
    e.preventDefault();
    const bib = typed.trim();
    if (bib === '') return;
    setAddError(null);
    correct.mutate(
      { bib, present: true },
      {
        onSuccess: () => setTyped(''),
        onError: (error) => {
          if (!isSignedOut(error)) setAddError(errorText(error));
        },
      },
    );
  };

  return (
    <div className="admin-photo-bibs" data-testid="photo-bibs">
      {bibs.length > 0 ? (
        <ul className="admin-bib-chips" aria-label={t('adminPhotos.bib.list')}>
          {bibs.map((b) => (
            <li
              key={`${b.source}-${b.bib}`}
              className={`chip admin-bib-chip admin-bib-${b.source}`}
              data-testid="bib-chip"
              data-bib={b.bib}
              data-source={b.source}
            >
              {b.source === 'removed' ? (
                <>
                  <s title={t('adminPhotos.bib.removedTitle')}>{b.bib}</s>
                  <button
                    type="button"
                    className="admin-bib-action"
                    data-testid="bib-restore"
                    disabled={busy}
                    aria-label={t('adminPhotos.bib.restoreLabel', { bib: b.bib })}
                    onClick={() => change(b.bib, true)}
                  >
                    {t('adminPhotos.bib.restore')}
                  </button>
                </>
              ) : (
                <>
                  <span>{b.bib}</span>
                  {b.source === 'read' && b.confidence !== null && b.confidence !== undefined && (
                    <span className="admin-bib-note">{t('adminPhotos.bib.confidence', { percent: percent(b.confidence) })}</span>
                  )}
                  {b.source === 'added' && <span className="admin-bib-note">{t('adminPhotos.bib.added')}</span>}
                  <button
                    type="button"
                    className="admin-bib-action"
                    data-testid="bib-remove"
                    disabled={busy}
                    aria-label={t('adminPhotos.bib.removeLabel', { bib: b.bib })}
                    onClick={() => change(b.bib, false)}
                  >
                    ×
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('adminPhotos.bib.none')}</p>
      )}
      <form className="admin-bib-add" onSubmit={add} noValidate>
        <label className="visually-hidden" htmlFor={`${id}-bib`}>
          {t('adminPhotos.bib.addLabel')}
        </label>
        <input
          id={`${id}-bib`}
          type="text"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setAddError(null);
          }}
          placeholder={t('adminPhotos.bib.placeholder')}
          autoComplete="off"
          maxLength={32}
          aria-invalid={addError !== null || undefined}
          aria-describedby={addError !== null ? `${id}-error` : undefined}
          data-testid="bib-add-input"
        />
        <button type="submit" className="btn btn-secondary btn-small" data-testid="bib-add" disabled={busy || typed.trim() === ''}>
          {t('adminPhotos.bib.add')}
        </button>
        {addError !== null && (
          <p className="field-error admin-bib-error" id={`${id}-error`} data-testid="bib-add-error" role="alert">
            {addError}
          </p>
        )}
      </form>
    </div>
  );
}
