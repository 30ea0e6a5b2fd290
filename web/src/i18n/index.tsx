//! Language of the app: Thai by default, English on request, remembered in browser
//! storage as `currentLanguage`. `useT` translates typed keys; `useErrorText`
//! (in `./errors`, loaded with the pages that show failures) turns any failure into the
//! visitor's text for its error code.

import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { STORAGE_KEYS, useStoredRaw, writeRaw } from '@/lib/storage';
import type { Language } from './define';
import { messages, type MessageKey } from './messages';

export type { Language } from './define';
export type { MessageKey } from './messages';

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

type I18n = { lang: Language; setLang: (lang: Language) => void; t: Translate };

const I18nContext = createContext<I18n | null>(null);

export function interpolate(text: string, vars?: Record<string, string | number>): string {
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

export function useLanguage(): [Language, (lang: Language) => void] {
  const { lang, setLang } = useI18n();
  return [lang, setLang];
}

/** A translator over a feature's own dictionary, for parts that load on demand (the
 * console): their texts stay out of the shop's first download. */
export function useDictionary<K extends string>(dict: { th: Record<K, string>; en: Record<K, string> }) {
  const { lang } = useI18n();
  return useCallback(
    (key: K, vars?: Record<string, string | number>) => interpolate(dict[lang][key] ?? key, vars),
    [dict, lang],
  );
}
