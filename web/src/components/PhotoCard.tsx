//! One photo of a shop grid (a search's results, the photos an alert found): its thumbnail
//! as a button opening the full-size viewer, whatever the page shows under it, and its
//! actions — add to or remove from the cart, then any the page adds. The card is marked
//! while the photo is in the cart, and shows the event's sponsor frame over its thumbnail
//! when the event has one. The texts come translated from the page, each feature having
//! its own; the page keeps the cart and the viewer.

import type { ReactNode } from 'react';
import type { PhotoBody } from '@/api/types';
import { thumbnailProps } from '@/components/thumbnail';

/** The card's texts, for this photo. */
export type PhotoCardLabels = {
  /** The accessible name of the button opening the photo. */
  open: string;
  /** The thumbnail's alternative text. */
  alt: string;
  /** The cart button's text while the photo is out of the cart, and while it is in. */
  add: string;
  remove: string;
};

type Props = {
  photo: Pick<PhotoBody, 'id' | 'thumbnail_url'>;
  /** The card's place in its grid: the first few thumbnails load at once. */
  index: number;
  inCart: boolean;
  labels: PhotoCardLabels;
  onOpen: () => void;
  /** Adds the photo to the cart, or takes it out when `inCart`; without it the card offers
   * neither (a free-download event, a listing without actions). */
  onToggleCart?: () => void;
  /** The class of the button opening the photo, which the page's styles size. */
  openClassName?: string;
  /** What the page shows between the photo and its actions. */
  children?: ReactNode;
  /** The page's further actions, after the cart button (a download link, "not me"). */
  actions?: ReactNode;
  /** The event's sponsor frame, drawn over the thumbnail as downloads will carry it. */
  frameUrl?: string;
};

export function PhotoCard({
  photo,
  index,
  inCart,
  labels,
  onOpen,
  onToggleCart,
  openClassName = 'photo-open',
  children,
  actions,
  frameUrl,
}: Props) {
  return (
    <div className={`photo-card${inCart ? ' in-cart' : ''}`} data-testid="photo-card" data-photo-id={photo.id}>
      <button type="button" className={openClassName} aria-label={labels.open} onClick={onOpen}>
        <span className="framed">
          <img src={photo.thumbnail_url} alt={labels.alt} {...thumbnailProps(index)} />
          {frameUrl && <img className="photo-frame" src={frameUrl} alt="" aria-hidden="true" data-testid="photo-frame" />}
        </span>
      </button>
      {children}
      <div className="photo-actions">
        {onToggleCart && (
          <button
            type="button"
            className={`btn btn-small ${inCart ? 'btn-danger' : 'btn-primary'}`}
            data-testid={inCart ? 'remove-from-cart' : 'add-to-cart'}
            onClick={onToggleCart}
          >
            {inCart ? labels.remove : labels.add}
          </button>
        )}
        {actions}
      </div>
    </div>
  );
}
