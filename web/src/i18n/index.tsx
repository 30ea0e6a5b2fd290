//! Language of the app: Thai by default, English on request, remembered in browser
//! storage as `currentLanguage`. `useT` translates the shared texts' keys, and a feature's
//! `messages.ts` gives it `useTranslate` over its own keys as well; `useErrorText`
//! (in `./errors`, loaded with the pages that show failures) turns any failure into the
//! visitor's text for its error code.

import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { STORAGE_KEYS, useStoredRaw, writeRaw } from '@/lib/storage';
import type { Language } from './define';
import { messages, type MessageKey } from './messages';

export type { Language } from './define';
export type { MessageKey } from './messages';

type Vars = Record<string, string | number>;

/** A translator over the keys `K` (by default the shared texts'). */
export type Translate<K extends string = MessageKey> = (key: K, vars?: Vars) => string;

type I18n = { lang: Language; setLang: (lang: Language) => void; t: (key: string, vars?: Vars) => string };

const I18nContext = createContext<I18n | null>(null);

export function interpolate(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export function parseLanguage(raw: string | null): Language {
  return raw === 'en' || raw === '"en"' ? 'en' : 'th';
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const lang = parseLanguage(useStoredRaw(STORAGE_KEYS.language));
  const setLang = useCallback((next: Language) => writeRaw(STORAGE_KEYS.language, next), []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo<I18n>(() => {
    const dict = messages[lang];
    return { lang, setLang, t: (key, vars) => interpolate(dict[key] ?? key, vars) };
  }, [lang, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('I18nProvider is missing');
  return ctx;
}

export const useT = (): Translate => useI18n().t;

/** The translator over the shared texts and a feature's keys `K`: only for the feature's
 * `messages.ts`, which registers the feature's dictionary before handing this out. */
export const useTranslate = <K extends string>(): Translate<MessageKey | K> => useI18n().t;

export function useLanguage(): [Language, (lang: Language) => void] {
  const { lang, setLang } = useI18n();
  return [lang, setLang];
}

/** A translator over a feature's own dictionary, for parts that load on demand (the
 * console): their texts stay out of the shop's first download. */
export function useDictionary<K extends string>(dict: { th: Record<K, string>; en: Record<K, string> }) {
  const { lang } = useI18n();
  return useCallback(
    (key: K, vars?: Vars) => interpolate(dict[lang][key] ?? key, vars),
    [dict, lang],
  );
}
