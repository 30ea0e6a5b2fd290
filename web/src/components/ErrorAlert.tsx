//! A failure shown as an alert, in the reader's language (an API failure by its code).

import { useErrorText } from '@/i18n/errors';

export function ErrorAlert({ error, testId }: { error: unknown; testId?: string }) {
  const errorText = useErrorText();
  return (
    <p className="alert alert-danger" role="alert" data-testid={testId}>
      {errorText(error)}
    </p>
  );
}
