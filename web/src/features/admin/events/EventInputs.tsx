//! The event form's inputs, registered with the form by their field's name: a text input or
//! a checkbox with its label, hint and problems, and a group's own problems. Changing an
//! input takes its problems away (and its group's, when told).

import type { HTMLInputTypeAttribute } from 'react';
import { useFormContext, type FieldPath } from 'react-hook-form';
import { pathToWire } from './api';
import type { EventForm, FlagField } from './eventForm';
import { pathName, problemPath, useProblems, type Problem } from './problems';

/** What an input's `aria-describedby` names: its hint and its problems, when shown. */
function describedBy(id: string, hint: string | undefined, problems: Problem[]): string | undefined {
  return [hint ? `${id}-hint` : '', problems.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

type NotesProps = { id: string; path: string; hint: string | undefined; problems: Problem[] };

/** The hint and the problems below an input (its DOM id `id`, its field path `path`). */
function FieldNotes({ id, path, hint, problems }: NotesProps) {
  const { describe } = useProblems();
  return (
    <>
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {problems.length > 0 && (
        <p className="field-error" id={`${id}-error`} data-testid={`error-${pathToWire(path)}`}>
          {problems.map(describe).join(' ')}
        </p>
      )}
    </>
  );
}

/** The input's field, its problems, and its change: which takes away the problems of the
 * field and, when given, of its group. */
function useInput(name: FieldPath<EventForm>, group?: string) {
  const { register } = useFormContext<EventForm>();
  const { problemsOf, clear } = useProblems();
  const path = problemPath(name);
  const field = register(name, { onChange: () => clear((p) => p === path || p === group) });
  return { path, id: `event-field-${pathName(path)}`, field, problems: problemsOf(path) };
}

type TextProps = {
  name: FieldPath<EventForm>;
  label: string;
  /** A row's list, whose own problems go too when the input changes. */
  group?: string;
  type?: HTMLInputTypeAttribute;
  inputMode?: 'decimal' | 'numeric';
  hint?: string;
  required?: boolean;
  readOnly?: boolean;
  autoCapitalize?: string;
};

/** One input with its label, hint and problems; its test id and DOM id come from its path. */
export function TextInput({ name, label, group, type = 'text', hint, required, ...rest }: TextProps) {
  const { path, id, field, problems } = useInput(name, group);
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        type={type}
        {...field}
        aria-required={required || undefined}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={describedBy(id, hint, problems)}
        data-testid={`field-${pathName(path)}`}
        {...rest}
      />
      <FieldNotes id={id} path={path} hint={hint} problems={problems} />
    </div>
  );
}

export function CheckInput({ name, label, hint }: { name: FlagField; label: string; hint?: string }) {
  const { path, id, field, problems } = useInput(name);
  return (
    <div className="admin-event-check-field">
      <label className="admin-event-check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          {...field}
          aria-invalid={problems.length > 0 || undefined}
          aria-describedby={describedBy(id, hint, problems)}
          data-testid={`field-${pathName(path)}`}
        />
        <span>{label}</span>
      </label>
      <FieldNotes id={id} path={path} hint={hint} problems={problems} />
    </div>
  );
}

/** The problems of a whole list (of tiers, of banners), below its rows. */
export function GroupError({ group }: { group: string }) {
  const { problemsOf, describe } = useProblems();
  const problems = problemsOf(group);
  if (problems.length === 0) return null;
  return (
    <p className="field-error" data-testid={`error-${pathToWire(group)}`} role="alert">
      {problems.map(describe).join(' ')}
    </p>
  );
}
