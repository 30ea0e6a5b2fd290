//! The bib number search form, beside the selfie upload on the event pages and on the manual
//! search page: one text field (letters and digits as printed on the bib; the server reads
//! `A 0042` and `a42` as one bib) and a search button. A number the event's rule refuses
//! (422 `invalid_bib`) is said beside the field.

import { useId, useState, type SyntheticEvent } from 'react';
import { Spinner } from '@/components/Spinner';
import { useT } from './messages';

type Props = {
  /** A search (of any kind) is running: nothing new starts. */
  busy: boolean;
  /** This form's own search is running: its spinner shows. */
  searching: boolean;
  /** Why the server refused the number, beside the field. */
  fieldError: string | null;
  onSearch: (bib: string) => void;
  /** Starts filled (the bib of the results shown). */
  initial?: string;
};

export function BibSearchForm({ busy, searching, fieldError, onSearch, initial = '' }: Props) {
  const t = useT();
  const id = useId();
  const [bib, setBib] = useState(initial);
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const typed = bib.trim();
    if (typed === '' || busy) return;
    onSearch(typed);
  };
  return (
    <section className="card bib-search stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('event.bib.title')}</h2>
      <p className="muted">{t('event.bib.help')}</p>
      <form className="bib-search-form" role="search" onSubmit={submit} noValidate data-testid="bib-form">
        <div className="field">
          <label htmlFor={`${id}-bib`}>{t('event.bib.label')}</label>
          <input
            id={`${id}-bib`}
            type="text"
            name="bib"
            value={bib}
            onChange={(e) => setBib(e.target.value)}
            placeholder={t('event.bib.placeholder')}
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            inputMode="text"
            enterKeyHint="search"
            maxLength={32}
            aria-invalid={fieldError !== null || undefined}
            aria-describedby={fieldError !== null ? `${id}-error` : undefined}
            data-testid="bib-input"
          />
          {fieldError !== null && (
            <p className="field-error" id={`${id}-error`} data-testid="bib-error" role="alert">
              {fieldError}
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-primary btn-block" data-testid="bib-submit" disabled={busy}>
          {t('event.bib.submit')}
        </button>
      </form>
      {searching && (
        <div data-testid="bib-spinner">
          <Spinner label={t('event.bib.searching')} />
        </div>
      )}
    </section>
  );
}
