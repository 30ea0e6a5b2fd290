//! One cart page for both carts (the standard cart and the wholesale cart): the
//! photos kept in browser storage, the event's packages and all-photos deal, the server's
//! price, and the order forms that create the order and lead to its download page.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiFailure } from '@/api/client';
import type { ShopEvent } from '@/api/event';
import { useDialog } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useLanguage } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import {
  cartEvents,
  clearCart,
  dealOffered,
  dealPrice,
  foundRefsOf,
  removeFromCart,
  setDeal,
  useCart,
  useDeal,
  type CartItem,
  type CartKind,
} from '@/lib/cart';
import { CONTACT } from '@/lib/constants';
import { formatBaht } from '@/lib/money';
import { logCart } from '@/lib/cartLog';
import { rememberOrder } from '@/lib/myOrders';
import { cartQueryKeys, createOrder, fetchGateway, useCartEvent, useChannels, useGateway, useQuote } from './api';
import { CartItems } from './CartItems';
import { OrderForm, type OrderSubmit } from './OrderForm';
import { PriceTable } from './PriceTable';
import './cart.css';
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
]);

export function Cart({ kind }: { kind: CartKind }) {
  const items = useCart(kind);
  // Once the order exists the cart is emptied; the page then waits for the order page
  // instead of flashing "your cart is empty".
  const [placed, setPlaced] = useState(false);
  if (placed) return <Spinner />;
  if (items.length === 0) return <EmptyCart kind={kind} />;
  return <FilledCart kind={kind} items={items} onPlaced={() => setPlaced(true)} />;
}

function Title({ kind }: { kind: CartKind }) {
  const t = useT();
  return <h1>{t(kind === 'wholesale' ? 'cart.wholesale.title' : 'cart.title')}</h1>;
}

function FindOrderLink() {
  const t = useT();
  return (
    <p className="center">
      <Link to="/find-order" data-testid="find-order-link">
        {t('cart.findOrder')}
      </Link>
    </p>
  );
}

function EmptyCart({ kind }: { kind: CartKind }) {
  const t = useT();
  return (
    <section className="page narrow stack">
      <Title kind={kind} />
      <div className="card center stack" data-testid="cart-empty">
        <p>{t('cart.empty.text')}</p>
        <Link to="/" className="btn btn-primary">
          {t('cart.empty.searchAgain')}
        </Link>
      </div>
      <FindOrderLink />
    </section>
  );
}

type FilledProps = { kind: CartKind; items: CartItem[]; onPlaced: () => void };

function FilledCart({ kind, items, onPlaced }: FilledProps) {
  const t = useT();
  const errorText = useErrorText();
  const toast = useToast();
  const dialog = useDialog();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dealFlag = useDeal(kind);

  const events = cartEvents(items);
  const mixed = events.length > 1;
  const eventKey = events.length === 1 ? (events[0] ?? null) : null;
  const eventQuery = useCartEvent(eventKey);
  const event = eventQuery.data;
  const dealOn = dealOffered(event, kind);
  const deal = dealOn && dealFlag === 'YES';

  const ids = useMemo(() => items.map((i) => i.id), [items]);
  const foundRefs = useMemo(() => foundRefsOf(items), [items]);
  const quoteQuery = useQuote(eventKey !== null && event ? { eventKey, ids, deal, kind, foundRefs } : null);
  // The previous cart's price only keeps the order form (and what was typed) in place
  // while the new price comes; it is never shown nor ordered with.
  const freshQuote = quoteQuery.isPlaceholderData ? undefined : quoteQuery.data;
  const shownQuote = quoteQuery.data;

  const gatewayQuery = useGateway();
  const channelsQuery = useChannels();

  const order = useMutation({
    mutationFn: async (values: OrderSubmit) => {
      if (!freshQuote || eventKey === null) throw new Error('no price for this cart');
      const gateway =
        gatewayQuery.data !== undefined
          ? gatewayQuery.data
          : await queryClient.query({ queryKey: cartQueryKeys.gateway, queryFn: fetchGateway });
      if (gateway === null) throw new NoGateway();
      return createOrder({ ...values, kind, gateway, eventKey, items, deal, quote: freshQuote });
    },
    onSuccess: (uuid) => {
      // This device keeps its own orders: the way back to one when nothing else reaches
      // the buyer (find-order opens none without a code).
      rememberOrder({ uuid, event_key: eventKey ?? '', title: event?.title ?? '', created: new Date().toISOString() });
      onPlaced();
      clearCart(kind);
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

  const removeOne = (item: CartItem) => {
    removeFromCart(kind, item.id);
    logCart(kind, items.filter((i) => i.id !== item.id), item.id, item.event_key);
  };

  const removeAll = async () => {
    const ok = await dialog.confirm({
      title: t('cart.removeAll.confirmTitle'),
      text: t('cart.removeAll.confirmText'),
      okLabel: t('cart.removeAll.ok'),
      tone: 'warning',
    });
    if (!ok) return;
    clearCart(kind);
    setDeal(kind, 'NO');
  };

  const addMoreTo = eventKey === null ? '/' : kind === 'wholesale' ? `/${eventKey}/wholesale` : `/${eventKey}`;
  const finalPayment = shownQuote?.cart_final_payment;
  const keepContract = event?.freeForContact ?? false;
  const formMode = finalPayment === undefined ? null : finalPayment !== 0 ? 'paid' : keepContract ? 'free' : null;
  const ready = freshQuote !== undefined && !quoteQuery.isFetching;

  return (
    <section className="page narrow stack cart-page">
      <Title kind={kind} />

      {mixed && (
        <div className="alert alert-danger" role="alert" data-testid="mixed-events-warning">
          {t('cart.mixedEvents')}
        </div>
      )}

      {eventKey !== null && (
        <EventCard
          kind={kind}
          event={event}
          loading={eventQuery.isPending}
          error={eventQuery.isError ? errorText(eventQuery.error) : null}
          dealOn={dealOn}
          dealChosen={dealFlag === 'YES'}
        />
      )}

      <div className="card stack">
        <CartItems items={items} onRemove={kind === 'standard' ? removeOne : undefined} />
        <div className="row cart-actions">
          <Link to={addMoreTo} className="btn btn-secondary" data-testid="add-more">
            {t('cart.addMore')}
          </Link>
          <button type="button" className="btn btn-danger" data-testid="remove-all" onClick={() => void removeAll()}>
            {t('cart.removeAll')}
          </button>
        </div>
      </div>

      {!mixed && eventKey !== null && event && (
        <>
          {freshQuote ? (
            <PriceTable quote={freshQuote} />
          ) : quoteQuery.isError ? (
            <div className="alert alert-danger stack" role="alert" data-testid="quote-error">
              <p>
                {t('cart.price.failed')} {errorText(quoteQuery.error)}
              </p>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => void quoteQuery.refetch()}>
                {t('retry')}
              </button>
            </div>
          ) : (
            <Spinner label={t('cart.price.loading')} />
          )}

          {formMode !== null && !quoteQuery.isError && (
            <OrderForm
              key={formMode}
              kind={kind}
              mode={formMode}
              ready={ready}
              submitting={order.isPending}
              gatewayChannels={channelsQuery.data}
              onSubmit={(values) => order.mutate(values)}
            />
          )}
          {finalPayment === 0 && !keepContract && !quoteQuery.isError && (
            <p className="alert alert-info">{t('cart.freeEventNote')}</p>
          )}
        </>
      )}

      <FindOrderLink />
    </section>
  );
}

type EventCardProps = {
  kind: CartKind;
  event: ShopEvent | undefined;
  loading: boolean;
  error: string | null;
  dealOn: boolean;
  dealChosen: boolean;
};

function EventCard({ kind, event, loading, error, dealOn, dealChosen }: EventCardProps) {
  const t = useT();
  const [lang] = useLanguage();
  if (loading) return <Spinner label={t('cart.event.loading')} />;
  if (error !== null || !event) {
    return (
      <div className="alert alert-danger" role="alert">
        {t('cart.event.failed')} {error}
      </div>
    );
  }
  const packages = kind === 'wholesale' ? event.wholesalePackages : event.packages;
  const price = dealPrice(event, kind);
  return (
    <div className="card stack">
      <h2 className="cart-event-title" data-testid="cart-event-title">
        {event.title}
      </h2>
      {kind === 'wholesale' && <p className="muted">{t('cart.wholesale.intro')}</p>}
      {packages.length > 0 && (
        <div>
          <h3>{t('cart.packages.title')}</h3>
          <ul className="cart-packages" data-testid="cart-packages">
            {packages.map((p) => (
              <li key={`${p.number_of_photo}-${p.name}`}>
                <span>{lang === 'en' ? p.name_en : p.name}</span>
                <span className="cart-package-price">
                  {formatBaht(p.price)} {t('baht')}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {dealOn && (
        <div className={`cart-deal${dealChosen ? ' cart-deal-on' : ''}`}>
          <p>
            {dealChosen
              ? t('cart.deal.selected')
              : price != null
                ? t('cart.deal.offer', { price: formatBaht(price) })
                : t('cart.deal.offerNoPrice')}
          </p>
          {dealChosen ? (
            <button type="button" className="btn btn-secondary" data-testid="deal-cancel" onClick={() => setDeal(kind, 'NO')}>
              {t('cart.deal.cancel')}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-accent"
              data-testid="deal-select"
              onClick={() => setDeal(kind, 'YES', price ?? null)}
            >
              {t('cart.deal.select')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
