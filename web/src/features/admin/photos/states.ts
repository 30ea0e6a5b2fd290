//! The states a photo goes through on the server, in the order the page shows them (its
//! filter tabs and counts). The contract carries a state as text; these are the ones known.

export const PHOTO_STATES = ['queued', 'processing', 'ready', 'failed'] as const;
export type PhotoState = (typeof PHOTO_STATES)[number];

export const isPhotoState = (s: string | null | undefined): s is PhotoState =>
  (PHOTO_STATES as readonly (string | null | undefined)[]).includes(s);
