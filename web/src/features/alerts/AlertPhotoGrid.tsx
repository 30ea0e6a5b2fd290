//! The photos an alert found, shown as a search's results are on the event page: a card per
//! photo opening the full-size viewer, with add to and remove from the standard cart just as
//! there (choosing photos one by one leaves the all-photos deal; each change is logged). A
//! photo an alert found is no search's result, so it carries no search reference.

import { lazy, Suspense, useState } from 'react';
import type { PhotoBody } from '@/api/types';
import { useToast } from '@/components/Toast';
import { thumbnailProps } from '@/components/thumbnail';
import { addToCart, readCart, removeFromCart, setDeal, toCartItem, useCart } from '@/lib/cart';
import { logCart } from '@/lib/cartLog';
import { useT } from './messages';

const Lightbox = lazy(() => import('@/components/Lightbox'));

/** The cart of the event page, which these photos join. */
const KIND = 'standard';

type Props = { eventKey: string; photos: PhotoBody[] };

export function AlertPhotoGrid({ eventKey, photos }: Props) {
  const t = useT();
  const toast = useToast();
  const cart = useCart(KIND);
  const inCart = new Set(cart.map((i) => i.id));
  const [open, setOpen] = useState<number | null>(null);

  const change = (photo: PhotoBody, add: boolean) => {
    if (add) addToCart(KIND, [toCartItem(photo, eventKey)]);
    else removeFromCart(KIND, photo.id);
    setDeal(KIND, 'NO');
    logCart(KIND, readCart(KIND), photo.id, eventKey);
    toast.success(t(add ? 'alert.cart.added' : 'alert.cart.removed'));
  };

  return (
    <>
      <div className="photo-grid" data-testid="alert-photos">
        {photos.map((photo, i) => {
          const has = inCart.has(photo.id);
          return (
            <div
              key={photo.id}
              className={`photo-card${has ? ' in-cart' : ''}`}
              data-testid="photo-card"
              data-photo-id={photo.id}
            >
              <button
                type="button"
                className="alert-photo-open"
                aria-label={t('alert.photo.open', { id: photo.id })}
                onClick={() => setOpen(i)}
              >
                <img src={photo.thumbnail_url} alt={t('alert.photo.alt', { id: photo.id })} {...thumbnailProps(i)} />
              </button>
              <div className="photo-actions">
                <button
                  type="button"
                  className={`btn btn-small ${has ? 'btn-danger' : 'btn-primary'}`}
                  data-testid={has ? 'remove-from-cart' : 'add-to-cart'}
                  onClick={() => change(photo, !has)}
                >
                  {t(has ? 'alert.cart.remove' : 'alert.cart.add')}
                </button>
              </div>
            </div>
          );
        })}
      </div>
      {open !== null && (
        <Suspense fallback={null}>
          <Lightbox
            open
            index={open}
            onClose={() => setOpen(null)}
            slides={photos.map((p) => ({ src: p.preview_url, alt: t('alert.photo.alt', { id: p.id }) }))}
          />
        </Suspense>
      )}
    </>
  );
}
