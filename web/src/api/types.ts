//! Short names for the API's schemas, as the features use them.

import type { components } from './schema';

type Schemas = components['schemas'];

export type EventBody = Schemas['EventBody'];
export type PackageBody = Schemas['PackageBody'];
export type PhotoBody = Schemas['PhotoBody'];
export type BannerBody = Schemas['BannerBody'];
export type SearchResponse = Schemas['SearchResponse'];
export type QuoteResponse = Schemas['QuoteResponse'];
export type InquiryResponse = Schemas['InquiryResponse'];
export type CreateOrderRequest = Schemas['CreateOrderRequest'];
export type FoundOrderRow = Schemas['FoundOrderRow'];

/** `Y`/`N` flags as the spec's API carries them. */
export const isYes = (flag: string | null | undefined): boolean => flag === 'Y';
