//! The popup shown when asking the server about an order fails (the order's query itself,
//! asked again every few seconds while the order can still change, is in `api.ts`).

import { useCallback } from 'react';
import { useDialog } from '@/components/Dialog';
import { CONTACT } from '@/lib/constants';
import { useT } from './messages';

/** The top popup for a failed order call, optionally followed by the error's own text. */
export function useOrderFailurePopup(): (detail?: string) => Promise<void> {
  const t = useT();
  const { alert } = useDialog();
  return useCallback(
    (detail?: string) =>
      alert({
        title: t('order.failure.title'),
        text: detail ? `${t('order.failure.text', { line: CONTACT.line })} (${detail})` : t('order.failure.text', { line: CONTACT.line }),
        tone: 'error',
      }),
    [alert, t],
  );
}
