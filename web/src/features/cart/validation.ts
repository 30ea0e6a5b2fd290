//! The order forms' rules: mobile digits within the form's length, an optional
//! e-mail in plain form, and a payment method on the paid form. Errors are message keys so
//! they follow the language when the visitor switches it.

import type { PaymentChannel } from '@/api/types';
import type { CartMessageKey } from './messages';
import { EXACT_MOBILE_LENGTH, MOBILE_LENGTH } from '@/lib/constants';
import type { CartKind } from '@/lib/cart';

/** The channels a payment gateway may take (`PAYMENT_CHANNELS`), in the order offered. */
export const GATEWAY_CHANNELS = ['PP', 'CC'] as const satisfies readonly PaymentChannel[];
export type GatewayChannel = (typeof GATEWAY_CHANNELS)[number];
/** The paid form's channels: a gateway's, or approval by the admin. */
export type PaidChannel = GatewayChannel | 'AM';
export type FormMode = 'paid' | 'free';

export type MobileRule = { min: number; max: number; stripOnInput: boolean };

export type ContactValues = { mobile: string; email: string; channel: PaidChannel | '' };

export type ErrorMessage = { key: CartMessageKey; vars?: Record<string, number> };
export type FormErrors = Partial<Record<'mobile' | 'email' | 'payment', ErrorMessage>>;

/** The standard paid form takes 5–15 digits as typed; the others exactly 10, with anything
 * but digits dropped while typing. */
export function mobileRule(kind: CartKind, mode: FormMode): MobileRule {
  if (kind === 'standard' && mode === 'paid') return { ...MOBILE_LENGTH, stripOnInput: false };
  return { min: EXACT_MOBILE_LENGTH, max: EXACT_MOBILE_LENGTH, stripOnInput: true };
}

/** The channels the paid form offers: those the gateway takes, and approval by the admin
 * (not a gateway channel) in the wholesale cart only. While the gateway's list is unknown
 * (or empty) only PromptPay is offered: every gateway takes it, whereas a card form on a
 * gateway without cards would fail after the order exists; an empty gateway setting is then
 * reported when the order is sent. */
export function paidChannels(kind: CartKind, gateway: readonly GatewayChannel[] | undefined): PaidChannel[] {
  const taken = gateway !== undefined && gateway.length > 0 ? gateway : ['PP'];
  const offered: PaidChannel[] = GATEWAY_CHANNELS.filter((c) => taken.includes(c));
  return kind === 'wholesale' ? [...offered, 'AM'] : offered;
}

export function mobileError(mobile: string, rule: MobileRule): ErrorMessage | undefined {
  if (mobile === '') return { key: 'cart.error.mobileRequired' };
  if (!/^[0-9]+$/.test(mobile)) return { key: 'cart.error.mobileDigits' };
  if (mobile.length < rule.min || mobile.length > rule.max) {
    return rule.min === rule.max
      ? { key: 'cart.error.mobileExact', vars: { length: rule.min } }
      : { key: 'cart.error.mobileRange', vars: { min: rule.min, max: rule.max } };
  }
  return undefined;
}

/**
 * Mirrors the server's check, so a refused address is caught here: the part before `@` in
 * ASCII letters, digits and the RFC 5322 symbols, dots between (other scripts there need a
 * mail server feature many lack); the domain in any script, which the server keeps in its
 * ASCII (punycode) form and may still refuse when it cannot convert it.
 */
export function isEmail(raw: string): boolean {
  const at = raw.lastIndexOf('@');
  if (at <= 0 || /[\s\p{Cc}]/u.test(raw)) return false;
  const local = raw.slice(0, at);
  const domain = raw.slice(at + 1);
  if (local.length > 64) return false;
  if (!local.split('.').every((atom) => /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/.test(atom))) return false;
  const labels = domain.split('.');
  const tld = labels[labels.length - 1] ?? '';
  return (
    labels.length >= 2 &&
    labels.every(
      // Any script passes (the server converts it); ASCII only as [A-Za-z0-9-].
      (l) => l !== '' && l.length <= 63 && !l.startsWith('-') && !l.endsWith('-') && /^(?:[A-Za-z0-9-]|\P{ASCII})+$/u.test(l),
    ) &&
    tld.length >= 2 &&
    !/^[0-9]+$/.test(tld)
  );
}

export function validateContact(values: ContactValues, rule: MobileRule, mode: FormMode): FormErrors {
  const errors: FormErrors = {};
  const mobile = mobileError(values.mobile, rule);
  if (mobile) errors.mobile = mobile;
  const email = values.email.trim();
  if (email !== '' && !isEmail(email)) errors.email = { key: 'cart.error.email' };
  if (mode === 'paid' && values.channel === '') errors.payment = { key: 'cart.error.payment' };
  return errors;
}
