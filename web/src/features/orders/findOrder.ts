//! The find-order form's rules: a filter and a text are required; a mobile number
//! has 10 to 15 digits, a receipt is exactly the last 4 characters of the transfer slip.

import type { OrderMessageKey } from './messages';
import { FIND_MOBILE_LENGTH, RECEIPT_LENGTH } from '@/lib/constants';

export type FindFilter = 'mobile' | 'receipt';

/** The request body of `POST /v1/order/find-order`. */
export type FindRequest = { filter_type: 'mobile' | 'payment_ref'; txt_search: string };

export type FindCheck =
  | { ok: true; request: FindRequest }
  | { ok: false; error: { key: OrderMessageKey; vars?: Record<string, number> } };

export function checkFind(filter: FindFilter | null, text: string): FindCheck {
  if (filter === null) return { ok: false, error: { key: 'order.find.err.filter' } };
  const value = text.trim();
  if (value === '') return { ok: false, error: { key: 'order.find.err.required' } };
  if (filter === 'mobile') {
    const digits = /^\d+$/.test(value);
    if (!digits || value.length < FIND_MOBILE_LENGTH.min || value.length > FIND_MOBILE_LENGTH.max) {
      return { ok: false, error: { key: 'order.find.err.mobile', vars: { ...FIND_MOBILE_LENGTH } } };
    }
    return { ok: true, request: { filter_type: 'mobile', txt_search: value } };
  }
  if (!new RegExp(`^[A-Za-z0-9]{${RECEIPT_LENGTH}}$`).test(value)) {
    return { ok: false, error: { key: 'order.find.err.receipt', vars: { length: RECEIPT_LENGTH } } };
  }
  return { ok: true, request: { filter_type: 'payment_ref', txt_search: value } };
}
