//! The summary of a form's problems above the form (WCAG 3.3.1): an alert that takes the
//! keyboard focus and scrolls into view once drawn, so nobody misses why the form was refused.

import { useCallback, useRef, type ReactNode, type RefObject } from 'react';

/** The summary's element, and a call that moves the focus and the view to it. */
export function useProblemSummary() {
  const summaryRef = useRef<HTMLDivElement>(null);
  const focusSummary = useCallback(() => {
    // After the render that draws the summary.
    window.setTimeout(() => {
      summaryRef.current?.focus();
      summaryRef.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    });
  }, []);
  return { summaryRef, focusSummary };
}

type Props = {
  summaryRef: RefObject<HTMLDivElement | null>;
  className: string;
  testId: string;
  title: ReactNode;
  /** One list item a problem. */
  children: ReactNode;
};

export function ProblemSummary({ summaryRef, className, testId, title, children }: Props) {
  return (
    <div ref={summaryRef} className={`alert alert-danger ${className}`} role="alert" tabIndex={-1} data-testid={testId}>
      <p>{title}</p>
      <ul>{children}</ul>
    </div>
  );
}
