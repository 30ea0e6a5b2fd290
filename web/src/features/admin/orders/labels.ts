//! Payment states and channels in the operator's words: the known codes have texts, any
//! other code the server may add is shown as sent.

import { PAYMENT_CHANNELS, PAYMENT_STATUSES } from './queries';

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

export const isPaymentStatus = (s: string): s is PaymentStatus => (PAYMENT_STATUSES as readonly string[]).includes(s);
export const isPaymentChannel = (c: string): c is PaymentChannel => (PAYMENT_CHANNELS as readonly string[]).includes(c);

/** An AM order still waiting: the buyer asked an admin to approve it. */
export const awaitsApproval = (o: { payment_channel: string; payment_status: string }): boolean =>
  o.payment_channel === 'AM' && o.payment_status === 'INITIAL';
