//! Places where a page of one feature shows a part of another. A feature imports no other
//! feature (eslint.config.js), so the page leaves a named slot and the app
//! (`app/slots.tsx`, which may import every feature) fills it, loading the part's code only
//! when it is shown. A slot nobody filled shows nothing, as in a feature's own tests.

import { createContext, useContext, type ComponentType } from 'react';

export type Slots = {
  /** Below a face search that ran (found or not), while the page still holds the visitor's
   * selfie: the offer of alerts of new photos of that face. */
  afterFaceSearch?: ComponentType<{ eventKey: string; selfie: File }>;
  /** At the top of the event page, with or without a search: what the address brought back
   * (an alert's answer from LINE). */
  eventNotice?: ComponentType;
};

const SlotsContext = createContext<Slots>({});

export const SlotsProvider = SlotsContext.Provider;

/** The part the app put in slot `name`, or undefined. */
export function useSlot<K extends keyof Slots>(name: K): Slots[K] {
  return useContext(SlotsContext)[name];
}
