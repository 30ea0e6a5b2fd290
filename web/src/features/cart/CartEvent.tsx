//! The cart's event: its title, the cart's price tiers, and the all-photos deal when the
//! event offers it in this cart (its price, and choosing or dropping it).

import type { ShopEvent } from '@/api/event';
import { Spinner } from '@/components/Spinner';
import { useLanguage } from '@/i18n';
import { dealPrice, setDeal, type CartKind } from '@/lib/cart';
import { formatBaht } from '@/lib/money';
import { useT } from './messages';

type Props = {
  kind: CartKind;
  event: ShopEvent | undefined;
  loading: boolean;
  error: string | null;
  dealOn: boolean;
  dealChosen: boolean;
};

export function CartEvent({ kind, event, loading, error, dealOn, dealChosen }: Props) {
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
