//! The console's dark mode: a class on the console's root, remembered in browser storage as
//! `admin_theme` (`dark` or `light`); with nothing stored, the system's preference.

import { readRaw, useStoredRaw, writeRaw } from '@/lib/storage';

export const ADMIN_THEME_KEY = 'admin_theme';

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-color-scheme: dark)').matches
    : false;
}

export function useAdminTheme(): { dark: boolean; toggle: () => void } {
  const stored = useStoredRaw(ADMIN_THEME_KEY);
  const dark = stored === 'dark' || (stored === null && systemPrefersDark());
  const toggle = () => {
    const current = readRaw(ADMIN_THEME_KEY);
    const isDark = current === 'dark' || (current === null && systemPrefersDark());
    writeRaw(ADMIN_THEME_KEY, isDark ? 'light' : 'dark');
  };
  return { dark, toggle };
}

/** Class names of the console's root for the current theme. */
export const rootClass = (dark: boolean): string => `admin-root${dark ? ' admin-dark' : ''}`;
