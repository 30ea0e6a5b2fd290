//! The order forms: the paid form (mobile, optional e-mail, payment method
//! among those the gateway takes) and the free form (contact only), also for a cart a photo
//! pass pays for. Fields are checked here before anything is sent.

import { useId, useState, type SyntheticEvent } from 'react';
import type { PaymentChannel } from '@/api/types';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import type { CartKind } from '@/lib/cart';
import { CONTACT } from '@/lib/constants';
import {
  mobileRule,
  paidChannels,
  validateContact,
  type ContactValues,
  type ErrorMessage,
  type FormErrors,
  type FormMode,
  type GatewayChannel,
} from './validation';
import { useT } from './messages';

export type OrderSubmit = { mobile: string; email: string; channel: PaymentChannel };

type Props = {
  kind: CartKind;
  mode: FormMode;
  /** A photo pass pays for the cart (the free form, in its own words). */
  byPass?: boolean;
  submitting: boolean;
  /** False while the price is being (re)computed: an order must match the shown quote. */
  ready: boolean;
  /** The channels the gateway takes (`PAYMENT_CHANNELS`); undefined while not known. */
  gatewayChannels: readonly GatewayChannel[] | undefined;
  onSubmit: (values: OrderSubmit) => void;
};

export function OrderForm({ kind, mode, byPass = false, submitting, ready, gatewayChannels, onSubmit }: Props) {
  const t = useT();
  const id = useId();
  const rule = mobileRule(kind, mode);
  const channels = paidChannels(kind, gatewayChannels);
  const [typed, setValues] = useState<ContactValues>({ mobile: '', email: '', channel: '' });
  // A choice the gateway no longer offers (its list came or changed) counts as no choice.
  const values: ContactValues =
    typed.channel === '' || channels.includes(typed.channel) ? typed : { ...typed, channel: '' };
  const [errors, setErrors] = useState<FormErrors>({});
  const [tried, setTried] = useState(false);

  // After a refused submit the messages follow the fields as they are corrected.
  const update = (next: ContactValues) => {
    setValues(next);
    if (tried) setErrors(validateContact(next, rule, mode));
  };

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (submitting) return;
    const found = validateContact(values, rule, mode);
    setTried(true);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const channel = mode === 'free' ? 'FREE' : values.channel;
    if (channel === '') return;
    onSubmit({ mobile: values.mobile, email: values.email, channel });
  };

  const text = (m: ErrorMessage | undefined) => (m ? t(m.key, m.vars) : '');
  const mobileId = `${id}-mobile`;
  const emailId = `${id}-email`;

  return (
    <form className="card cart-form" onSubmit={submit} noValidate data-testid={mode === 'free' ? 'free-form' : 'paid-form'}>
      <h2>{t(mode === 'paid' ? 'cart.form.paidTitle' : byPass ? 'cart.form.passTitle' : 'cart.form.freeTitle')}</h2>

      <InputField
        id={mobileId}
        label={t('cart.form.mobile')}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        data-testid="mobile-input"
        value={values.mobile}
        aria-invalid={errors.mobile ? true : undefined}
        aria-describedby={`${mobileId}-hint${errors.mobile ? ` ${mobileId}-error` : ''}`}
        onChange={(e) => {
          const raw = e.target.value;
          update({ ...values, mobile: rule.stripOnInput ? raw.replace(/[^0-9]/g, '') : raw });
        }}
      >
        <span id={`${mobileId}-hint`} className="muted cart-hint">
          {t('cart.form.mobileHint')}
        </span>
        {errors.mobile && (
          <span id={`${mobileId}-error`} className="field-error" data-testid="mobile-error">
            {text(errors.mobile)}
          </span>
        )}
      </InputField>

      <InputField
        id={emailId}
        label={t('cart.form.email')}
        type="email"
        autoComplete="email"
        data-testid="email-input"
        value={values.email}
        aria-invalid={errors.email ? true : undefined}
        aria-describedby={errors.email ? `${emailId}-error` : undefined}
        onChange={(e) => update({ ...values, email: e.target.value })}
      >
        {errors.email && (
          <span id={`${emailId}-error`} className="field-error" data-testid="email-error">
            {text(errors.email)}
          </span>
        )}
      </InputField>

      {mode === 'paid' && (
        <fieldset className="field cart-payment" aria-describedby={errors.payment ? `${id}-payment-error` : undefined}>
          <legend>{t('cart.form.payment')}</legend>
          <div className="radio-row">
            {channels.map((c) => (
              <label key={c} className="cart-radio">
                <input
                  type="radio"
                  name={`${id}-payment`}
                  value={c}
                  data-testid={`payment-${c}`}
                  checked={values.channel === c}
                  onChange={() => update({ ...values, channel: c })}
                />
                {t(`cart.form.payment.${c}`)}
              </label>
            ))}
          </div>
          {values.channel === 'AM' && (
            <p className="muted cart-hint">{t('cart.form.payment.AMNote', { line: CONTACT.line })}</p>
          )}
          {errors.payment && (
            <span id={`${id}-payment-error`} className="field-error" data-testid="payment-error">
              {text(errors.payment)}
            </span>
          )}
        </fieldset>
      )}

      <button
        type="submit"
        className="btn btn-primary btn-block"
        data-testid="submit-order"
        disabled={submitting || !ready}
        aria-busy={submitting}
      >
        {submitting ? (
          <>
            <Spinner inline />
            {t('cart.form.submitting')}
          </>
        ) : (
          t(mode === 'paid' ? 'cart.form.submit' : byPass ? 'cart.form.submitPass' : 'cart.form.submitFree')
        )}
      </button>
    </form>
  );
}
