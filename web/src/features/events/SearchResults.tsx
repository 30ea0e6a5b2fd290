//! The photos a search found (or the manual search's listing): a card per photo opening the
//! lightbox, with add/remove (paid events, standard cart) or a direct download link
//! (free-download events), the badge of how a bib search found it, anything the page adds
//! below the photo (`caption`), for a group search the people each photo shows, and, for
//! search results, a "not me" button handing the photo to `onNotMe`. The event's sponsor
//! frame, when it has one, is shown over every thumbnail and preview.

import { useState, type ReactNode } from 'react';
import type { PhotoBody } from '@/api/types';
import { PhotoCard } from '@/components/PhotoCard';
import { useToast } from '@/components/Toast';
import { addToCart, readCart, removeFromCart, setDeal, toCartItem, useCart, type CartKind } from '@/lib/cart';
import { logCart } from '@/lib/cartLog';
import { MatchBadge } from './MatchBadge';
import { PeopleChips } from './PeopleChips';
import { PhotoLightbox } from './PhotoLightbox';
import { useEventQuery } from './api';
import { useT } from './messages';

/** The server answers the original as an attachment; the query opens it outside in-app browsers. */
export const photoDownloadUrl = (eventKey: string, photoId: number) =>
  `/api/events/${encodeURIComponent(eventKey)}/photos/${String(photoId)}/download?openExternalBrowser=1`;

export type CardAction = 'cart' | 'download' | 'none';

/** Takes a photo out of the cart, which leaves the all-photos deal, and logs the
 * change; nothing when the photo is not in the cart. */
export function takeOutOfCart(kind: CartKind, photoId: number, eventKey: string) {
  if (!readCart(kind).some((i) => i.id === photoId)) return;
  removeFromCart(kind, photoId);
  setDeal(kind, 'NO');
  logCart(kind, readCart(kind), photoId, eventKey);
}

type Props<P extends PhotoBody> = {
  eventKey: string;
  photos: P[];
  kind: CartKind;
  action: CardAction;
  /** The visitor says the photo is not of them; without it, no card offers "not me". */
  onNotMe?: (photoId: number) => void;
  /** What the page shows under a photo (the manual listing: its time and bibs). */
  caption?: (photo: P) => ReactNode;
  /** How many people the search looked for: with two or more, each card names whom it shows. */
  people?: number;
  /** The search's `found_ref`, kept with each photo added to the cart (the deal covers only
   * photos a search found); none for a listing. */
  foundRef?: string | null;
  /** The grid's test id and accessible name, when it is not a search's results. */
  testId?: string;
  label?: string;
};

export function SearchResults<P extends PhotoBody>({
  eventKey,
  photos,
  kind,
  action,
  onNotMe,
  caption,
  people = 1,
  foundRef = null,
  testId = 'search-results',
  label,
}: Props<P>) {
  const t = useT();
  const toast = useToast();
  const cart = useCart(kind);
  const inCart = new Set(cart.map((i) => i.id));
  const [open, setOpen] = useState<number | null>(null);
  const frameUrl = useEventQuery(eventKey).data?.frame_url ?? undefined;

  const add = (photo: PhotoBody) => {
    addToCart(kind, [toCartItem(photo, eventKey, foundRef)]);
    // Choosing photos one by one leaves the all-photos deal.
    setDeal(kind, 'NO');
    logCart(kind, readCart(kind), photo.id, eventKey);
    toast.success(t('event.cart.added'));
  };
  const remove = (photo: PhotoBody) => {
    takeOutOfCart(kind, photo.id, eventKey);
    toast.success(t('event.cart.removed'));
  };

  return (
    <section className="stack" aria-label={label ?? t('event.results')}>
      <div className="photo-grid" data-testid={testId}>
        {photos.map((photo, i) => {
          const has = inCart.has(photo.id);
          return (
            <PhotoCard
              key={photo.id}
              photo={photo}
              index={i}
              inCart={has}
              labels={{
                open: t('event.openPhoto', { id: photo.id }),
                alt: t('event.photoAlt', { id: photo.id }),
                add: t('event.cart.add'),
                remove: t('event.cart.remove'),
              }}
              onOpen={() => setOpen(i)}
              frameUrl={frameUrl}
              onToggleCart={action === 'cart' ? () => (has ? remove(photo) : add(photo)) : undefined}
              actions={
                <>
                  {action === 'download' && (
                    <a
                      className="btn btn-primary btn-small"
                      data-testid="download-photo"
                      href={photoDownloadUrl(eventKey, photo.id)}
                      download
                    >
                      {t('event.download')}
                    </a>
                  )}
                  {onNotMe && (
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      data-testid="not-me"
                      aria-label={t('event.notMe.label', { id: photo.id })}
                      onClick={() => onNotMe(photo.id)}
                    >
                      {t('event.notMe')}
                    </button>
                  )}
                </>
              }
            >
              <MatchBadge matchedBy={photo.matched_by} />
              {people > 1 && <PeopleChips people={photo.people ?? []} />}
              {caption?.(photo)}
            </PhotoCard>
          );
        })}
      </div>
      <PhotoLightbox photos={photos} index={open} onClose={() => setOpen(null)} frameUrl={frameUrl} />
    </section>
  );
}
