//! Every text of the app: the shared texts from the start, and each feature's own
//! dictionary added when the feature's code loads. A feature's texts live in its chunk, so
//! the first script (what a phone on a slow network waits for) carries only the shared
//! ones. Feature code imports `useT` from its own `messages.ts`, which adds the dictionary
//! before anything of the feature renders; `messages.test.ts` holds every file to that.

import type { cartMessages } from '@/features/cart/messages';
import type { contentMessages } from '@/features/content/messages';
import type { eventsMessages } from '@/features/events/messages';
import type { homeMessages } from '@/features/home/messages';
import type { ordersMessages } from '@/features/orders/messages';
import type { qrMessages } from '@/features/qr/messages';
import { common } from './common';

type Th = typeof common.th &
  typeof homeMessages.th &
  typeof eventsMessages.th &
  typeof cartMessages.th &
  typeof ordersMessages.th &
  typeof contentMessages.th &
  typeof qrMessages.th;

export type MessageKey = keyof Th & string;

/** The texts loaded so far, by language (a key not loaded yet reads as itself). */
export const messages = {
  th: { ...common.th } as Record<MessageKey, string>,
  en: { ...common.en } as Record<MessageKey, string>,
};

/** Adds a feature's dictionary (run once, when its module is evaluated). */
export function addMessages<T extends { th: Record<string, string>; en: Record<string, string> }>(part: T): T {
  Object.assign(messages.th, part.th);
  Object.assign(messages.en, part.en);
  return part;
}
