//! The cart's thumbnails in a scrolling area of fixed height, each with its own
//! remove button where the cart allows picking photos one by one.

import { thumbnailProps } from '@/components/thumbnail';
import type { CartItem } from '@/lib/cart';
import { CART_LIST_HEIGHT_PX } from '@/lib/constants';
import { useT } from './messages';

type Props = { items: CartItem[]; onRemove?: (item: CartItem) => void };

export function CartItems({ items, onRemove }: Props) {
  const t = useT();
  return (
    <section aria-labelledby="cart-items-title">
      <h2 id="cart-items-title">{t('cart.items.title', { count: items.length })}</h2>
      {/* Focusable so the list can be scrolled from the keyboard. */}
      <div
        className="cart-items"
        style={{ maxHeight: CART_LIST_HEIGHT_PX }}
        data-testid="cart-items"
        role="region"
        aria-labelledby="cart-items-title"
        tabIndex={0}
      >
        <ul className="photo-grid cart-grid">
          {items.map((item, index) => (
            <li key={item.id} className="photo-card in-cart" data-testid="cart-item">
              <img
                src={item.thumbnail_url}
                alt={t('cart.items.photoAlt', { name: item.original_file_name })}
                {...thumbnailProps(index)}
              />
              {onRemove && (
                <div className="photo-actions">
                  <button
                    type="button"
                    className="btn btn-danger btn-small"
                    data-testid="cart-remove"
                    aria-label={t('cart.items.removeLabel', { name: item.original_file_name })}
                    onClick={() => onRemove(item)}
                  >
                    {t('cart.items.remove')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
