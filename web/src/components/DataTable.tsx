//! A table of rows with a head row naming its columns, inside the wrapper that lets a wide
//! table scroll sideways on a narrow screen. Number columns align right (`num`). A table
//! with a `label` is a named region that takes the keyboard's focus, so that one whose
//! rows hold nothing focusable can still be scrolled without a mouse.

import type { ReactNode } from 'react';

/** A column's heading: its label, or the label of a number column. */
export type Column = string | { label: string; num: true };

type Props = {
  className: string;
  testId?: string;
  /** Names the table for assistive technology; makes its wrapper focusable. */
  label?: string;
  columns: readonly Column[];
  /** The body's rows. */
  children: ReactNode;
};

export function DataTable({ className, testId, label, columns, children }: Props) {
  const region = label === undefined ? {} : { role: 'region', 'aria-label': label, tabIndex: 0 };
  return (
    <div className="table-wrap" {...region}>
      <table className={`table ${className}`} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className="num">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
