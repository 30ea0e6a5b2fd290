//! The summary of the event form's problems above the form: each names where it is (a link
//! that moves the focus to its input) and what is wrong.

import type { RefObject } from 'react';
import { ProblemSummary } from '@/components/ProblemSummary';
import { useAdminEventsT } from './i18n';
import { describePath, pathName, useProblems } from './problems';

export function ProblemList({ summaryRef }: { summaryRef: RefObject<HTMLDivElement | null> }) {
  const t = useAdminEventsT();
  const { problems, describe } = useProblems();
  if (problems.length === 0) return null;
  return (
    <ProblemSummary
      summaryRef={summaryRef}
      className="admin-event-summary"
      testId="form-errors"
      title={<strong>{t('adminEvents.form.problems', { count: problems.length })}</strong>}
    >
      {problems.map((p, i) => (
        <li key={`${p.field}-${i}`}>
          <a
            href={`#event-field-${pathName(p.field)}`}
            onClick={(e) => {
              const target = document.getElementById(`event-field-${pathName(p.field)}`);
              if (!target) return;
              e.preventDefault();
              target.focus();
            }}
          >
            {describePath(t, p.field)}
          </a>
          : {describe(p)}
        </li>
      ))}
    </ProblemSummary>
  );
}
