//! The bottom of a cart of one event: the photo pass box (standard cart), the server's price
//! (or why it is missing), then the order form the price calls for: the paid form, the free
//! form of an event that gives its photos for the buyer's contact or of a cart a pass pays
//! for, or a note when the photos are simply free.

import { Spinner } from '@/components/Spinner';
import { useErrorText } from '@/i18n/errors';
import type { CartKind } from '@/lib/cart';
import { OrderForm } from './OrderForm';
import { PassField } from './PassField';
import { PriceTable } from './PriceTable';
import type { Checkout } from './useCheckout';
import { useT } from './messages';

export function CartCheckout({ kind, checkout }: { kind: CartKind; checkout: Checkout }) {
  const t = useT();
  const errorText = useErrorText();
  const { quoteQuery, freshQuote, order, pass } = checkout;
  const finalPayment = quoteQuery.data?.cart_final_payment;
  const keepContract = checkout.event?.freeForContact ?? false;
  const byPass = quoteQuery.data?.pass?.pays === true;
  const formMode =
    finalPayment === undefined ? null : finalPayment !== 0 ? 'paid' : keepContract || byPass ? 'free' : null;
  const ready = freshQuote !== undefined && !quoteQuery.isFetching;

  return (
    <>
      {kind === 'standard' && (
        <PassField
          code={pass.code}
          quoteInput={pass.quoteInput}
          quote={freshQuote}
          quoteError={quoteQuery.error}
          onApply={pass.apply}
          onRemove={pass.remove}
        />
      )}
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
          key={`${formMode}-${byPass}`}
          kind={kind}
          mode={formMode}
          byPass={byPass}
          ready={ready}
          submitting={order.isPending}
          gatewayChannels={checkout.channels}
          onSubmit={(values) => order.mutate(values)}
        />
      )}
      {finalPayment === 0 && !keepContract && !byPass && !quoteQuery.isError && (
        <p className="alert alert-info">{t('cart.freeEventNote')}</p>
      )}
    </>
  );
}
