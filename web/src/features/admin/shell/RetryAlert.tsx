//! A console query that failed: what went wrong, and a button that asks again.

import { useDictionary } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { shellMessages } from './messages';

type Failed = { error: unknown; refetch: () => Promise<unknown> };

export function RetryAlert({ query }: { query: Failed }) {
  const t = useDictionary(shellMessages);
  const errorText = useErrorText();
  return (
    <div className="alert alert-danger" role="alert">
      <p>{errorText(query.error)}</p>
      <button type="button" className="btn btn-secondary btn-small" onClick={() => void query.refetch()}>
        {t('shell.retry')}
      </button>
    </div>
  );
}
