//! What a filled cart needs to be ordered: its one event (none when the photos, and the
//! certificate, come from several), whether the all-photos deal is on offer (to a cart with
//! photos) and chosen, the photo pass the runner applied (standard cart only), the server's
//! price of exactly these photos and this certificate with it, the gateway's channels, and
//! the order itself (`useCartOrder`).

import { useMemo, useState } from 'react';
import {
  cartEvents,
  dealOffered,
  foundRefsOf,
  useDeal,
  type CartCertificate,
  type CartItem,
  type CartKind,
} from '@/lib/cart';
import { useCartEvent, useChannels, useGateway, useQuote } from './api';
import { useCartOrder } from './useCartOrder';

/** `certificate`: the finisher certificate the (standard) cart buys, if any. */
export function useCheckout(
  kind: CartKind,
  items: CartItem[],
  certificate: CartCertificate | null,
  onPlaced: () => void,
) {
  const dealChosen = useDeal(kind) === 'YES';
  const events = cartEvents(items, certificate);
  const mixed = events.length > 1;
  const eventKey = events.length === 1 ? (events[0] ?? null) : null;
  const eventQuery = useCartEvent(eventKey);
  const event = eventQuery.data;
  // The deal is on the photos: a cart holding only a certificate is not offered it.
  const dealOn = items.length > 0 && dealOffered(event, kind);
  const deal = dealOn && dealChosen;

  const ids = useMemo(() => items.map((i) => i.id), [items]);
  const foundRefs = useMemo(() => foundRefsOf(items), [items]);
  // A pass is checked by its own quote before it is applied (PassField).
  const [applied, setPassCode] = useState<string | null>(null);
  const passCode = kind === 'standard' ? applied : null;
  const certificateBib = certificate?.bib ?? null;
  const quoteInput =
    eventKey !== null && event ? { eventKey, ids, deal, kind, foundRefs, passCode, certificateBib } : null;
  const quoteQuery = useQuote(quoteInput);
  // The previous cart's price only keeps the order form (and what was typed) in place
  // while the new price comes; it is never shown nor ordered with.
  const freshQuote = quoteQuery.isPlaceholderData ? undefined : quoteQuery.data;

  const gatewayQuery = useGateway();
  const channelsQuery = useChannels();
  const gateway = gatewayQuery.data;
  const order = useCartOrder({
    kind,
    items,
    certificateBib,
    eventKey,
    event,
    deal,
    quote: freshQuote,
    gateway,
    passCode,
    onPlaced,
  });

  const channels = channelsQuery.data;
  const pass = { code: passCode, quoteInput, apply: setPassCode, remove: () => setPassCode(null) };
  return { mixed, eventKey, eventQuery, event, dealOn, dealChosen, quoteQuery, freshQuote, channels, order, pass };
}

export type Checkout = ReturnType<typeof useCheckout>;
