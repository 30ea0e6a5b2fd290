//! One cart page for both carts (the standard cart and the wholesale cart): the
//! photos kept in browser storage (and, in the standard cart, the finisher certificate it
//! buys, with photos or alone), the event's packages and all-photos deal, the server's
//! price, and the order forms that create the order and lead to its download page.

import { useState } from 'react';
import { Link } from 'react-router';
import { useDialog } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';
import { useErrorText } from '@/i18n/errors';
import {
  clearCart,
  clearCartCertificate,
  removeFromCart,
  setDeal,
  useCart,
  useCartCertificate,
  type CartCertificate,
  type CartItem,
  type CartKind,
} from '@/lib/cart';
import { logCart } from '@/lib/cartLog';
import { CartCertificateLine } from './CartCertificateLine';
import { CartCheckout } from './CartCheckout';
import { CartEvent } from './CartEvent';
import { CartItems } from './CartItems';
import { useCheckout } from './useCheckout';
import './cart.css';
import { useT } from './messages';

export function Cart({ kind }: { kind: CartKind }) {
  const items = useCart(kind);
  const stored = useCartCertificate();
  // Only the standard cart buys a certificate.
  const certificate = kind === 'standard' ? stored : null;
  // Once the order exists the cart is emptied; the page then waits for the order page
  // instead of flashing "your cart is empty".
  const [placed, setPlaced] = useState(false);
  if (placed) return <Spinner />;
  if (items.length === 0 && certificate === null) return <EmptyCart kind={kind} />;
  return <FilledCart kind={kind} items={items} certificate={certificate} onPlaced={() => setPlaced(true)} />;
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

type FilledProps = { kind: CartKind; items: CartItem[]; certificate: CartCertificate | null; onPlaced: () => void };

function FilledCart({ kind, items, certificate, onPlaced }: FilledProps) {
  const t = useT();
  const errorText = useErrorText();
  const dialog = useDialog();
  const checkout = useCheckout(kind, items, certificate, onPlaced);
  const { mixed, eventKey, eventQuery, event } = checkout;

  const removeOne = (item: CartItem) => {
    removeFromCart(kind, item.id);
    logCart(kind, items.filter((i) => i.id !== item.id), item.id, item.event_key);
  };

  const removeAll = async () => {
    const ok = await dialog.confirm({
      title: t('cart.removeAll.confirmTitle'),
      text: t(certificate ? 'cart.removeAll.confirmTextCertificate' : 'cart.removeAll.confirmText'),
      okLabel: t('cart.removeAll.ok'),
      tone: 'warning',
    });
    if (!ok) return;
    clearCart(kind);
    if (certificate) clearCartCertificate();
    setDeal(kind, 'NO');
  };

  const addMoreTo = eventKey === null ? '/' : kind === 'wholesale' ? `/${eventKey}/wholesale` : `/${eventKey}`;

  return (
    <section className="page narrow stack cart-page">
      <Title kind={kind} />

      {mixed && (
        <div className="alert alert-danger" role="alert" data-testid="mixed-events-warning">
          {t(certificate ? 'cart.mixedEventsCertificate' : 'cart.mixedEvents')}
        </div>
      )}

      {eventKey !== null && (
        <CartEvent
          kind={kind}
          event={event}
          loading={eventQuery.isPending}
          error={eventQuery.isError ? errorText(eventQuery.error) : null}
          dealOn={checkout.dealOn}
          dealChosen={checkout.dealChosen}
        />
      )}

      <div className="card stack">
        {certificate && (
          <CartCertificateLine
            certificate={certificate}
            price={checkout.freshQuote?.cart_certificate_amt ?? undefined}
            onRemove={clearCartCertificate}
          />
        )}
        {items.length > 0 && <CartItems items={items} onRemove={kind === 'standard' ? removeOne : undefined} />}
        <div className="row cart-actions">
          <Link to={addMoreTo} className="btn btn-secondary" data-testid="add-more">
            {t('cart.addMore')}
          </Link>
          <button type="button" className="btn btn-danger" data-testid="remove-all" onClick={() => void removeAll()}>
            {t('cart.removeAll')}
          </button>
        </div>
      </div>

      {!mixed && eventKey !== null && event && <CartCheckout kind={kind} checkout={checkout} />}

      <FindOrderLink />
    </section>
  );
}
