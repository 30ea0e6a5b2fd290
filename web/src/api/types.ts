//! Short names for the API's schemas, as the features use them.

import type { components } from './schema';

type Schemas = components['schemas'];

export type EventBody = Schemas['EventBody'];
export type PackageBody = Schemas['PackageBody'];
export type PhotoBody = Schemas['PhotoBody'];
export type BannerBody = Schemas['BannerBody'];
export type SearchResponse = Schemas['SearchResponse'];
export type BibSearchResponse = Schemas['BibSearchResponse'];
export type MatchedBy = Schemas['MatchedByBody'];
export type ManualRequest = Schemas['ManualRequest'];
export type ManualResponse = Schemas['ManualResponse'];
export type ManualPhoto = Schemas['ManualPhoto'];
export type Photographer = Schemas['Photographer'];
export type QuoteResponse = Schemas['QuoteResponse'];
export type InquiryResponse = Schemas['InquiryResponse'];
export type CreateOrderRequest = Schemas['CreateOrderRequest'];
export type FoundOrderRow = Schemas['FoundOrderRow'];

// The contract's closed value sets.
export type YesNo = Schemas['YesNo'];
export type EventStatus = Schemas['EventStatus'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type PaymentChannel = Schemas['PaymentChannel'];
export type PaymentGateway = Schemas['PaymentGateway'];

// The sets' values at run time (guards, a filter's options), checked against the contract.
export const PAYMENT_STATUSES = ['INITIAL', 'PAID', 'EXPIRED', 'CANCELLED'] as const satisfies readonly PaymentStatus[];
export const PAYMENT_CHANNELS = ['PP', 'CC', 'AM', 'FREE'] as const satisfies readonly PaymentChannel[];
export const PAYMENT_GATEWAYS = ['GBP', 'OPN', 'PROMPTPAY', 'SANDBOX'] as const satisfies readonly PaymentGateway[];

function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): value is T => (values as readonly string[]).includes(value);
}

/** Whether a text from outside the typed answers (a setting, an address, a newer server)
 * is one of the set's values. */
export const isPaymentStatus = oneOf<PaymentStatus>(PAYMENT_STATUSES);
export const isPaymentChannel = oneOf<PaymentChannel>(PAYMENT_CHANNELS);
export const isPaymentGateway = oneOf<PaymentGateway>(PAYMENT_GATEWAYS);

/** `Y`/`N` flags as the API carries them, read and written. */
export const isYes = (flag: YesNo | null | undefined): boolean => flag === 'Y';
export const yesNo = (on: boolean): YesNo => (on ? 'Y' : 'N');
