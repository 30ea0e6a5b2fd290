//! Pinned sidebar items (bookmarks): the pinned pages' paths, in pinning order, stored as a
//! JSON array under the `pinned_menu` key.

import { useCallback, useMemo } from 'react';
import { readJson, STORAGE_KEYS, useStoredRaw, writeJson } from '@/lib/storage';

const isPathList = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string');

function parsePinned(raw: string | null): string[] {
  if (raw === null) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return isPathList(value) ? value : [];
  } catch {
    return [];
  }
}

export function readPinned(): string[] {
  return readJson<string[]>(STORAGE_KEYS.pinnedMenu, [], isPathList);
}

export function togglePinned(path: string) {
  const pinned = readPinned();
  writeJson(STORAGE_KEYS.pinnedMenu, pinned.includes(path) ? pinned.filter((p) => p !== path) : [...pinned, path]);
}

export function usePinned(): { pinned: string[]; toggle: (path: string) => void } {
  const raw = useStoredRaw(STORAGE_KEYS.pinnedMenu);
  const pinned = useMemo(() => parsePinned(raw), [raw]);
  const toggle = useCallback((path: string) => togglePinned(path), []);
  return { pinned, toggle };
}
