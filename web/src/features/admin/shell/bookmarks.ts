//! Pinned sidebar items (bookmarks): the pinned pages' paths, in pinning order, stored as a
//! JSON array under the `pinned_menu` key.

import { useCallback, useMemo } from 'react';
import { parseJson, readJson, STORAGE_KEYS, useStoredRaw, writeJson } from '@/lib/storage';

const isPathList = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string');

export function readPinned(): string[] {
  return readJson<string[]>(STORAGE_KEYS.pinnedMenu, [], isPathList);
}

export function togglePinned(path: string) {
  const pinned = readPinned();
  writeJson(STORAGE_KEYS.pinnedMenu, pinned.includes(path) ? pinned.filter((p) => p !== path) : [...pinned, path]);
}

export function usePinned(): { pinned: string[]; toggle: (path: string) => void } {
  const raw = useStoredRaw(STORAGE_KEYS.pinnedMenu);
  const pinned = useMemo(() => parseJson<string[]>(raw, [], isPathList), [raw]);
  const toggle = useCallback((path: string) => togglePinned(path), []);
  return { pinned, toggle };
}
