//! The finisher certificate the standard cart buys: whose it is (bib and runner's name), its
//! price exactly as the server quoted it (`cart_certificate_amt`; nothing shown until then),
//! and a button taking it out of the cart.

import type { CartCertificate } from '@/lib/cart';
import { formatBaht } from '@/lib/money';
import { useT } from './messages';

type Props = {
  certificate: CartCertificate;
  /** The quoted price; `undefined` while the cart is being priced. */
  price: number | undefined;
  onRemove: () => void;
};

export function CartCertificateLine({ certificate, price, onRemove }: Props) {
  const t = useT();
  return (
    <div className="cart-certificate" data-testid="cart-certificate">
      <span className="cart-certificate-name">
        {t('cart.certificate.line', { bib: certificate.bib, name: certificate.name })}
      </span>
      {price !== undefined && (
        <span className="cart-package-price" data-testid="cart-certificate-price">
          {formatBaht(price)} {t('baht')}
        </span>
      )}
      <button
        type="button"
        className="btn btn-danger btn-small"
        data-testid="cart-certificate-remove"
        aria-label={t('cart.certificate.removeLabel')}
        onClick={onRemove}
      >
        {t('cart.items.remove')}
      </button>
    </div>
  );
}
