//! The selfies of a group search (the visitor's and up to two friends'), each with a
//! thumbnail address (`URL.createObjectURL`) made when it is added and revoked when it is
//! removed, when the group is given up, and when the page goes. `null` while the visitor
//! searches alone.

import { useEffect, useRef, useState } from 'react';

/** At most this many people are searched together (the server's limit). */
export const MAX_PEOPLE = 3;

export type GroupSelfie = { id: number; file: File; url: string };

const thumbnailOf = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
const revoke = (selfie: GroupSelfie) => {
  if (selfie.url !== '' && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(selfie.url);
};

export function useGroupSelfies() {
  const [selfies, setSelfies] = useState<GroupSelfie[] | null>(null);
  const nextId = useRef(1);
  const latest = useRef<GroupSelfie[] | null>(null);
  useEffect(() => {
    latest.current = selfies;
  }, [selfies]);
  useEffect(
    () => () => {
      latest.current?.forEach(revoke);
    },
    [],
  );

  const make = (file: File): GroupSelfie => ({ id: nextId.current++, file, url: thumbnailOf(file) });

  /** Starts a group, with the visitor's own selfie when one was searched with already. */
  const open = (mine: File | null) => {
    if (selfies !== null) return;
    setSelfies(mine === null ? [] : [make(mine)]);
  };
  /** Adds the next person (the visitor first, then friends); nothing past the limit. */
  const add = (file: File) => {
    if (selfies === null || selfies.length >= MAX_PEOPLE) return;
    setSelfies([...selfies, make(file)]);
  };
  const remove = (id: number) => {
    if (selfies === null) return;
    selfies.filter((s) => s.id === id).forEach(revoke);
    setSelfies(selfies.filter((s) => s.id !== id));
  };
  /** Back to searching alone. */
  const close = () => {
    selfies?.forEach(revoke);
    setSelfies(null);
  };

  return { selfies, open, add, remove, close };
}
