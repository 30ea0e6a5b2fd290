//! The cart's calls: the cart's event, the server's price of the cart (with a photo pass,
//! and the finisher certificate it buys),
//! the payment gateway setting and the channels that gateway takes, order creation and the
//! cart log. Money is only ever read from the quote, never computed here.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import { eventFromWire } from '@/api/event';
import {
  isPaymentGateway,
  yesNo,
  type CreateOrderRequest,
  type PaymentChannel,
  type PaymentGateway,
  type QuoteResponse,
} from '@/api/types';
import { foundRefsOf, type CartItem, type CartKind } from '@/lib/cart';
import { GATEWAY_CHANNELS, type GatewayChannel } from './validation';

// Keys stay under `cart` so another feature's cache entries never meet these.
export const cartQueryKeys = {
  event: (eventKey: string) => ['cart', 'event', eventKey] as const,
  quote: ['cart', 'quote'] as const,
  gateway: ['cart', 'conf', 'PAYMENT_GATEWAY'] as const,
  channels: ['cart', 'conf', 'PAYMENT_CHANNELS'] as const,
};

export function useCartEvent(eventKey: string | null) {
  return useQuery({
    queryKey: cartQueryKeys.event(eventKey ?? ''),
    queryFn: async () =>
      eventFromWire(await unwrap(api.GET('/v1/events/{event_key}', { params: { path: { event_key: eventKey ?? '' } } }))),
    enabled: eventKey !== null,
  });
}

/** `deal`: the all-photos deal is chosen; `foundRefs`: the searches the cart's photos came
 * from, which the deal (or an all-photos pass) may cover; `passCode`: a photo pass's code,
 * as the runner typed it; `certificateBib`: the bib whose finisher certificate the cart buys. */
export type QuoteInput = {
  eventKey: string;
  ids: number[];
  deal: boolean;
  kind: CartKind;
  foundRefs: string[];
  passCode: string | null;
  certificateBib: string | null;
};

/** The server's price of a cart; an `ApiFailure` when it refuses (a wrong pass code too). */
export function fetchQuote(input: QuoteInput): Promise<QuoteResponse> {
  return unwrap(
    api.POST('/api/cart/quote', {
      body: {
        event_key: input.eventKey,
        image_ids: input.ids,
        is_mhao: yesNo(input.deal),
        wholesale: input.kind === 'wholesale',
        ...(input.deal || input.passCode !== null ? { found_refs: input.foundRefs } : {}),
        ...(input.passCode !== null ? { pass_code: input.passCode } : {}),
        ...(input.certificateBib !== null ? { certificate_bib: input.certificateBib } : {}),
      },
    }),
  );
}

export function useQuote(input: QuoteInput | null) {
  return useQuery({
    queryKey: [
      ...cartQueryKeys.quote,
      input?.kind,
      input?.eventKey,
      input?.ids,
      input?.deal,
      input?.foundRefs,
      input?.passCode,
      input?.certificateBib,
    ],
    queryFn: (): Promise<QuoteResponse> => {
      if (!input) throw new Error('quote without a cart');
      return fetchQuote(input);
    },
    enabled: input !== null,
    // A price must never be shown for a cart it was not computed for: callers show only
    // non-placeholder data; the previous answer only keeps the order form in place.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** The gateway a `PAYMENT_GATEWAY` value names, or `null` when it names none (an empty
 * setting): then nothing may be ordered. */
function parseGateway(value: string): PaymentGateway | null {
  const name = value.trim();
  return isPaymentGateway(name) ? name : null;
}

/** The configured gateway, or `null` when there is none. */
export async function fetchGateway(): Promise<PaymentGateway | null> {
  const answer = await unwrap(api.POST('/v1/utils/conf', { body: { conf_name: 'PAYMENT_GATEWAY' } }));
  return answer.status === 'success' ? parseGateway(answer.body.value) : null;
}

export function useGateway() {
  return useQuery({ queryKey: cartQueryKeys.gateway, queryFn: fetchGateway });
}

/** The channels of a comma-separated `PAYMENT_CHANNELS` value the paid form knows, each once,
 * in the order given; anything else (a channel added later) is left out. */
export function parseChannels(value: string): GatewayChannel[] {
  const known: readonly string[] = GATEWAY_CHANNELS;
  const found = value
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter((c): c is GatewayChannel => known.includes(c));
  return [...new Set(found)];
}

/** The channels the configured gateway takes for a paid order (`PP`, `CC`). */
export async function fetchChannels(): Promise<GatewayChannel[]> {
  const answer = await unwrap(api.POST('/v1/utils/conf', { body: { conf_name: 'PAYMENT_CHANNELS' } }));
  return answer.status === 'success' ? parseChannels(answer.body.value) : [];
}

export function useChannels() {
  return useQuery({ queryKey: cartQueryKeys.channels, queryFn: fetchChannels });
}

export type OrderInput = {
  kind: CartKind;
  gateway: PaymentGateway;
  mobile: string;
  email: string;
  channel: PaymentChannel;
  eventKey: string;
  items: CartItem[];
  /** The bib whose finisher certificate the order buys (then `items` may be empty). */
  certificateBib: string | null;
  deal: boolean;
  quote: QuoteResponse;
  /** The photo pass that pays for the cart, when one does. */
  passCode: string | null;
};

/** The body of order creation: the amounts are the server's quote, never the browser's. */
export function orderBody(o: OrderInput): CreateOrderRequest {
  const email = o.email.trim();
  return {
    mobile: o.mobile,
    email: email === '' ? null : email,
    event_key: o.eventKey,
    amount: o.quote.amount,
    paid_amount: o.quote.paid_amount,
    // Only the ids: the server trusts nothing else of a cart photo, and a 2,000-photo cart
    // of ids stays within the server's 64 KB body limit.
    imageList: o.items.map((item) => ({ id: item.id })),
    image_length: o.items.length,
    is_mhao: yesNo(o.deal),
    payment_gateway: o.gateway,
    payment_channel: o.channel,
    wholesale: o.kind === 'wholesale',
    // The deal (and an all-photos pass) covers the photos the cart's searches found; their
    // references say which.
    ...(o.deal || o.passCode !== null ? { found_refs: foundRefsOf(o.items) } : {}),
    ...(o.passCode !== null ? { pass_code: o.passCode } : {}),
    ...(o.certificateBib !== null ? { certificate_bib: o.certificateBib } : {}),
  };
}

/** Creates the order through the gateway's endpoint; answers its uuid. */
export async function createOrder(o: OrderInput): Promise<string> {
  const body = orderBody(o);
  const answer = await unwrap(
    o.gateway === 'OPN' ? api.POST('/v3/order/create', { body }) : api.POST('/v1/order/create', { body }),
  );
  if (answer.status !== 'success' || answer.uuid === '') throw new Error('order not created');
  return answer.uuid;
}

