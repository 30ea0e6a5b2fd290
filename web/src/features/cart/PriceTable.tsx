//! The cart's price table: every number exactly as the server quoted it (the finisher
//! certificate's price on its own row when the cart buys one; the totals include it).

import type { QuoteResponse } from '@/api/types';
import type { CartMessageKey } from './messages';
import { PAYMENT_FEE_PERCENT } from '@/lib/constants';
import { formatBaht } from '@/lib/money';
import { useT } from './messages';

type Row = { label: string; testId: string; value: number; strong?: boolean };

export function PriceTable({ quote }: { quote: QuoteResponse }) {
  const t = useT();
  const money = (key: CartMessageKey, testId: string, value: number, strong = false): Row => ({
    label: t(key, { percent: PAYMENT_FEE_PERCENT }),
    testId,
    value,
    strong,
  });
  const certificate = quote.cart_certificate_amt ?? 0;
  const rows: Row[] = [
    ...(certificate > 0 ? [money('cart.price.certificate', 'cart-certificate-amt', certificate)] : []),
    money('cart.price.full', 'cart-full-amt', quote.cart_full_amt),
    money('cart.price.discount', 'cart-discount', quote.cart_discount),
    money('cart.price.amount', 'cart-amt', quote.cart_amt),
    money('cart.price.fee', 'cart-fee', quote.cart_payment_fee),
    money('cart.price.final', 'cart-final-payment', quote.cart_final_payment, true),
  ];
  return (
    <section className="card" aria-labelledby="cart-price-title">
      <h2 id="cart-price-title">{t('cart.price.title')}</h2>
      <div className="table-wrap">
        <table className="table cart-price-table">
          <tbody>
            <tr>
              <th scope="row">{t('cart.price.count')}</th>
              <td className="num" data-testid="cart-count-total">
                {quote.total}
              </td>
              <td className="cart-unit">{t('cart.price.unitPhotos')}</td>
            </tr>
            {rows.map((r) => (
              <tr key={r.testId} className={r.strong ? 'cart-price-final' : undefined}>
                <th scope="row">{r.label}</th>
                <td className="num" data-testid={r.testId}>
                  {formatBaht(r.value)}
                </td>
                <td className="cart-unit">{t('baht')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
