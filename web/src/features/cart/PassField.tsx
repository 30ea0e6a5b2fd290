//! The photo pass box of the standard cart: the runner types the code their organiser gave
//! them; the server prices the cart with it (a code is applied only once the server knows
//! it), and the box then says what the pass covers and whether it pays for this cart, or
//! what to change. Removing the pass prices the cart as before.

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { ApiFailure } from '@/api/client';
import type { QuoteResponse } from '@/api/types';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useErrorText } from '@/i18n/errors';
import { fetchQuote, type QuoteInput } from './api';
import { useT, type CartMessageKey } from './messages';

type Props = {
  /** The applied code, or `null`. */
  code: string | null;
  /** The cart as it is quoted now (without a pass or with the applied one). */
  quoteInput: QuoteInput | null;
  /** The fresh quote of the cart with the applied pass. */
  quote: QuoteResponse | undefined;
  /** Why the cart's quote failed, when it did (a pass used meanwhile, say). */
  quoteError: Error | null;
  onApply: (code: string) => void;
  onRemove: () => void;
};

const REASONS: Record<string, CartMessageKey> = {
  too_many_photos: 'cart.pass.tooManyPhotos',
  not_found_by_search: 'cart.pass.notFoundBySearch',
  wholesale: 'cart.pass.wholesale',
  free_event: 'cart.pass.freeEvent',
  certificate: 'cart.pass.certificate',
};

export function PassField({ code, quoteInput, quote, quoteError, onApply, onRemove }: Props) {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [missing, setMissing] = useState(false);
  const check = useMutation({
    mutationFn: (passCode: string) => {
      if (!quoteInput) throw new Error('no cart to apply a pass to');
      return fetchQuote({ ...quoteInput, passCode });
    },
    onSuccess: (_, passCode) => onApply(passCode),
  });

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const value = typed.trim();
    setMissing(value === '');
    if (value === '' || check.isPending) return;
    check.mutate(value);
  };

  if (code !== null) {
    const pass = quote?.pass;
    const shown = code.toUpperCase();
    const failed = quoteError instanceof ApiFailure && quoteError.code.startsWith('pass_');
    return (
      <section className="card stack cart-pass" data-testid="pass-applied" aria-live="polite">
        <h2>{t('cart.pass.title')}</h2>
        {pass && (
          <p data-testid="pass-cover">
            {pass.photos === null || pass.photos === undefined
              ? t('cart.pass.coversFound', { code: shown })
              : t('cart.pass.coversPhotos', { code: shown, count: pass.photos })}
          </p>
        )}
        {pass?.pays && (
          <p className="alert alert-info" data-testid="pass-pays">
            {t('cart.pass.pays')}
          </p>
        )}
        {pass && !pass.pays && (
          <p className="alert" data-testid="pass-shortfall">
            {t(REASONS[pass.reason ?? ''] ?? 'cart.pass.tooManyPhotos', { count: pass.photos ?? 0 })}
          </p>
        )}
        {failed && (
          <p className="alert alert-danger" role="alert" data-testid="pass-error">
            {errorText(quoteError)}
          </p>
        )}
        <div>
          <button type="button" className="btn btn-secondary btn-small" data-testid="pass-remove" onClick={onRemove}>
            {t('cart.pass.remove')}
          </button>
        </div>
      </section>
    );
  }

  const inputId = `${id}-code`;
  const problem = missing ? t('cart.pass.required') : check.isError ? errorText(check.error) : null;
  return (
    <form className="card stack cart-pass" onSubmit={submit} noValidate data-testid="pass-form">
      <h2>{t('cart.pass.title')}</h2>
      <p className="muted">{t('cart.pass.intro')}</p>
      <div className="row cart-pass-row">
        <InputField
          id={inputId}
          label={t('cart.pass.code')}
          fieldClassName="cart-pass-input"
          data-testid="pass-input"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          placeholder="XXXX-XXXX-XXXX"
          value={typed}
          aria-invalid={problem !== null ? true : undefined}
          aria-describedby={problem !== null ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setTyped(e.target.value);
            setMissing(false);
          }}
        >
          {problem !== null && (
            <span id={`${inputId}-error`} className="field-error" role="alert" data-testid="pass-error">
              {problem}
            </span>
          )}
        </InputField>
        <button type="submit" className="btn btn-secondary" data-testid="pass-apply" disabled={check.isPending}>
          {check.isPending ? (
            <>
              <Spinner inline />
              {t('cart.pass.checking')}
            </>
          ) : (
            t('cart.pass.apply')
          )}
        </button>
      </div>
    </form>
  );
}
