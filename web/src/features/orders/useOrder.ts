//! The order as the server sees it, asked again every few seconds while it can still change
//! (waiting for payment, or photos still being made), and the popup shown when asking fails.

import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, unwrap } from '@/api/client';
import { useDialog } from '@/components/Dialog';
import { CONTACT } from '@/lib/constants';
import { ORDER_POLL_MS, shouldPoll } from './orderData';
import { useT } from './messages';

export const orderQueryKey = (uuid: string) => ['orders', 'inquiry', uuid] as const;

export function useOrderInquiry(uuid: string) {
  return useQuery({
    queryKey: orderQueryKey(uuid),
    queryFn: () => unwrap(api.POST('/v3/order/inquiry', { body: { order_uuid: uuid } })),
    enabled: uuid !== '',
    refetchInterval: (query) => (shouldPoll(query.state.data) ? ORDER_POLL_MS : false),
  });
}

/** The spec's top popup for a failed order call (§8), optionally followed by the error's own text. */
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
