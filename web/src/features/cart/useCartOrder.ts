//! Ordering a cart: the order is created with the server's fresh quote (never the browser's
//! sums) through the configured gateway; then this device remembers it, the cart (its
//! photos, its certificate) and its deal are emptied and the visitor goes to the order's
//! page. A failure is told with the shop's LINE contact; one that may mean a stale price
//! asks for the price again, and a changed gateway asks for the gateway and its channels
//! again.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiFailure } from '@/api/client';
import type { ShopEvent } from '@/api/event';
import type { PaymentGateway, QuoteResponse } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { clearCart, clearCartCertificate, setDeal, type CartItem, type CartKind } from '@/lib/cart';
import { CONTACT } from '@/lib/constants';
import { rememberOrder } from '@/lib/myOrders';
import { cartQueryKeys, createOrder, fetchGateway } from './api';
import type { OrderSubmit } from './OrderForm';
import { useT } from './messages';

/** The gateway setting is empty: the shop cannot take orders until an administrator fixes it. */
class NoGateway extends Error {}

// Codes after which the shown price may be out of date, so it is asked for again.
const REQUOTE_ON = new Set([
  'amount_mismatch',
  'image_not_found',
  'mixed_events',
  'event_not_on_sale',
  'deal_not_available',
  'deal_needs_search',
  'pass_used',
  'pass_does_not_cover',
  'certificate_not_sold',
  'certificate_not_offered',
  'result_not_found',
]);

type Cart = {
  kind: CartKind;
  items: CartItem[];
  /** The bib whose finisher certificate the cart buys, if any. */
  certificateBib: string | null;
  eventKey: string | null;
  event: ShopEvent | undefined;
  deal: boolean;
  /** The price of exactly this cart, once the server has given it. */
  quote: QuoteResponse | undefined;
  /** The configured gateway, when already known (`null`: none is configured). */
  gateway: PaymentGateway | null | undefined;
  /** The photo pass applied to the cart. */
  passCode: string | null;
  onPlaced: () => void;
};

export function useCartOrder({
  kind,
  items,
  certificateBib,
  eventKey,
  event,
  deal,
  quote,
  gateway,
  passCode,
  onPlaced,
}: Cart) {
  const t = useT();
  const errorText = useErrorText();
  const toast = useToast();
  const dialog = useDialog();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: async (values: OrderSubmit) => {
      if (!quote || eventKey === null) throw new Error('no price for this cart');
      const chosen =
        gateway !== undefined
          ? gateway
          : await queryClient.query({ queryKey: cartQueryKeys.gateway, queryFn: fetchGateway });
      if (chosen === null) throw new NoGateway();
      return createOrder({ ...values, kind, gateway: chosen, eventKey, items, certificateBib, deal, quote, passCode });
    },
    onSuccess: (uuid) => {
      // This device keeps its own orders: the way back to one when nothing else reaches
      // the buyer (find-order opens none without a code).
      rememberOrder({ uuid, event_key: eventKey ?? '', title: event?.title ?? '', created: new Date().toISOString() });
      onPlaced();
      clearCart(kind);
      if (certificateBib !== null) clearCartCertificate();
      setDeal(kind, 'NO');
      toast.success(t('cart.order.created', { id: uuid }));
      void navigate(`/download/${uuid}`);
    },
    onError: (e) => {
      if (e instanceof NoGateway) {
        void dialog.alert({ title: t('cart.gateway.title'), text: t('cart.gateway.text'), tone: 'error' });
        return;
      }
      const base = t('cart.order.failed', { line: CONTACT.line });
      toast.error(e instanceof ApiFailure ? `${base} ${errorText(e)}` : base);
      if (e instanceof ApiFailure && REQUOTE_ON.has(e.code)) {
        void queryClient.invalidateQueries({ queryKey: cartQueryKeys.quote });
      }
      if (e instanceof ApiFailure && e.code === 'payment_gateway_changed') {
        void queryClient.invalidateQueries({ queryKey: cartQueryKeys.gateway });
        void queryClient.invalidateQueries({ queryKey: cartQueryKeys.channels });
      }
    },
  });
}
