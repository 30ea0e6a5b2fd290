//! The order pages' calls: the order's inquiry (asked again while it can still change), the
//! card charge and the OPN public key it needs, and find-order with its one-time codes.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';
import type { InquiryResponse } from '@/api/types';
import type { FindRequest } from './findOrder';
import { ORDER_POLL_MS, shouldPoll, toSatang } from './orderData';

type CardPaymentRequest = components['schemas']['CardPaymentRequest'];

export const orderQueryKeys = {
  inquiry: (uuid: string) => ['orders', 'inquiry', uuid] as const,
  opnPublicKey: ['orders', 'conf', 'OPN_PUBLIC_KEY'] as const,
  lineLogin: ['orders', 'conf', 'LINE_LOGIN'] as const,
};

export function fetchInquiry(uuid: string) {
  return unwrap(api.POST('/v3/order/inquiry', { body: { order_uuid: uuid } }));
}

export function useOrderInquiry(uuid: string) {
  return useQuery({
    queryKey: orderQueryKeys.inquiry(uuid),
    queryFn: () => fetchInquiry(uuid),
    enabled: uuid !== '',
    refetchInterval: (query) => (shouldPoll(query.state.data) ? ORDER_POLL_MS : false),
  });
}

/** The OPN public key the card form is opened with; asked once per page. */
export const opnPublicKeyQuery = queryOptions({
  queryKey: orderQueryKeys.opnPublicKey,
  queryFn: () => unwrap(api.POST('/v1/utils/conf', { body: { conf_name: 'OPN_PUBLIC_KEY' } })),
  staleTime: Infinity,
});

/** Whether orders can be sent to the runner's LINE (`on`); asked once per page. */
export const lineLoginQuery = queryOptions({
  queryKey: orderQueryKeys.lineLogin,
  queryFn: () => unwrap(api.POST('/v1/utils/conf', { body: { conf_name: 'LINE_LOGIN' } })),
  staleTime: Infinity,
});

/** Charges the card a `token` stands for, for the unpaid order `uuid`. */
export function chargeCard(uuid: string, order: InquiryResponse, token: string) {
  const body: CardPaymentRequest = {
    token_key: token,
    uuid,
    email: order.email === '' ? null : order.email,
    mobile: order.mobile,
    paid_amount: toSatang(order.amount),
  };
  return unwrap(api.POST('/v3/order/opn-cc-payment', { body }));
}

export function findOrders(request: FindRequest) {
  return unwrap(api.POST('/v1/order/find-order', { body: request }));
}

/** Sends a one-time code for the found order `lookup` to the order's own contact. */
export function sendOrderCode(lookup: string) {
  return unwrap(api.POST('/v1/order/find-order/send-code', { body: { lookup } }));
}

/** Opens the found order `lookup` with its one-time code; answers its order id. */
export function openFoundOrder(lookup: string, code: string) {
  return unwrap(api.POST('/v1/order/find-order/open', { body: { lookup, code } }));
}
