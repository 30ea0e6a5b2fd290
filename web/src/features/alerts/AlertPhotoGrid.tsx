//! The photos an alert found, shown as a search's results are on the event page: a card per
//! photo opening the full-size viewer, with add to and remove from the standard cart just as
//! there (choosing photos one by one leaves the all-photos deal; each change is logged). A
//! photo an alert found is no search's result, so it carries no search reference.

import { lazy, Suspense, useState } from 'react';
import type { PhotoBody } from '@/api/types';
import { PhotoCard } from '@/components/PhotoCard';
import { useToast } from '@/components/Toast';
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
            <PhotoCard
              key={photo.id}
              photo={photo}
              index={i}
              inCart={has}
              labels={{
                open: t('alert.photo.open', { id: photo.id }),
                alt: t('alert.photo.alt', { id: photo.id }),
                add: t('alert.cart.add'),
                remove: t('alert.cart.remove'),
              }}
              openClassName="alert-photo-open"
              onOpen={() => setOpen(i)}
              onToggleCart={() => change(photo, !has)}
            />
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
