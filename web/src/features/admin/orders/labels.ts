//! Payment states and channels in the operator's words: the known codes (the contract's,
//! from `@/api/types`) have texts, any other code the server may add is shown as sent.

import type { PaymentChannel, PaymentStatus } from '@/api/types';

/** An AM order still waiting: the buyer asked an admin to approve it. */
export const awaitsApproval = (o: { payment_channel: PaymentChannel; payment_status: PaymentStatus }): boolean =>
  o.payment_channel === 'AM' && o.payment_status === 'INITIAL';
