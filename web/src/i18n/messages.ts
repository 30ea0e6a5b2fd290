//! Every text of the app loaded so far: the shared texts from the start, and each feature's
//! own dictionary added when the feature's code loads. A feature's texts live in its chunk,
//! so the first script (what a phone on a slow network waits for) carries only the shared
//! ones. Nothing here knows the features: each one registers its dictionary from its own
//! `messages.ts`, which also gives the feature its translator; `messages.test.ts` holds
//! every file to that.

import { common } from './common';
import type { Language } from './define';

/** The keys of the shared texts, which every part of the app may use. */
export type MessageKey = keyof typeof common.th;

type Dictionary = { th: Record<string, string>; en: Record<string, string> };

/** The texts loaded so far, by language (a key not loaded yet reads as itself). */
export const messages: Record<Language, Record<string, string>> = {
  th: { ...common.th },
  en: { ...common.en },
};

/** Adds a feature's dictionary (run once, when its module is evaluated). */
export function addMessages<T extends Dictionary>(part: T): T {
  Object.assign(messages.th, part.th);
  Object.assign(messages.en, part.en);
  return part;
}
