//! The event form's problems: each names a field by its path in the form
//! (`packages[0].price`) and is our own text (by key) or the server's message. They show
//! beside their input and in a summary that takes the focus; changing a field takes its
//! problems away. Inputs are named in the DOM by their path in the import format.

import { createContext, useContext, useMemo, useState } from 'react';
import { useProblemSummary } from '@/components/ProblemSummary';
import { pathToWire } from './api';
import { BANNER_COLUMNS, FLAG_FIELDS, TEXT_FIELDS, TIER_COLUMNS, type ClientProblem } from './eventForm';
import { useAdminEventsT, type AdminEventsT } from './i18n';

export type Problem = { field: string; key?: ClientProblem['key']; message?: string };

/** A form field's name (`packages.0.price`) as a problem's path (`packages[0].price`). */
export const problemPath = (name: string): string => name.replace(/\.(\d+)(?=\.|$)/g, '[$1]');

/** The name of a field's input in its test id and DOM id: its path in the import format,
 * dashed (`wholesalePackages[1].price` → `package_hb-1-price`). */
export const pathName = (path: string): string =>
  pathToWire(path).replace(/\[(\d+)\]/g, '-$1').replace(/\./g, '-');

export function describeProblem(t: AdminEventsT, p: Problem): string {
  return p.key ? t(`adminEvents.problem.${p.key}`) : (p.message ?? '');
}

const isOneOf = <T extends string>(values: readonly T[], value: string | undefined): value is T =>
  (values as readonly (string | undefined)[]).includes(value);

const GROUPS = ['packages', 'wholesalePackages', 'banners'] as const;
const FIELDS = [...TEXT_FIELDS, ...FLAG_FIELDS];

/** Where a field path points, in the operator's words, for the summary. */
export function describePath(t: AdminEventsT, path: string): string {
  const [, group, index, column = ''] = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(path) ?? [];
  if (isOneOf(GROUPS, group)) {
    const label =
      group === 'banners'
        ? isOneOf(BANNER_COLUMNS, column) && t(`adminEvents.banner.${column}`)
        : isOneOf(TIER_COLUMNS, column) && t(`adminEvents.tier.${column}`);
    return `${t(`adminEvents.group.${group}`)} ${Number(index) + 1} · ${label || column}`;
  }
  if (isOneOf(GROUPS, path)) return t(`adminEvents.group.${path}`);
  if (isOneOf(FIELDS, path)) return t(`adminEvents.field.${path}`);
  return path === '' ? t('adminEvents.form.general') : path;
}

type Problems = {
  problems: Problem[];
  problemsOf: (path: string) => Problem[];
  describe: (p: Problem) => string;
  /** Takes away the problems whose path `matches`. */
  clear: (matches: (path: string) => boolean) => void;
};

const ProblemsContext = createContext<Problems | null>(null);
export const ProblemsProvider = ProblemsContext.Provider;

export function useProblems(): Problems {
  const problems = useContext(ProblemsContext);
  if (!problems) throw new Error('useProblems() is only available inside the event form');
  return problems;
}

/** The form's problems, for its `ProblemsProvider`, and `show`, which puts a new list in
 * place and takes the focus to its summary. */
export function useProblemList() {
  const t = useAdminEventsT();
  const [problems, setProblems] = useState<Problem[]>([]);
  const { summaryRef, focusSummary } = useProblemSummary();
  const value = useMemo<Problems>(
    () => ({
      problems,
      problemsOf: (path) => problems.filter((p) => p.field === path),
      describe: (p) => describeProblem(t, p),
      clear: (matches) => setProblems((all) => all.filter((p) => !matches(p.field))),
    }),
    [problems, t],
  );
  const show = (found: Problem[]) => {
    setProblems(found);
    if (found.length > 0) focusSummary();
  };
  return { value, show, summaryRef };
}
