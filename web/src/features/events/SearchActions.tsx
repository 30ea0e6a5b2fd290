//! The actions under the face search, on the photos it found: their count, buying all of them
//! (the all-photos deal: the cart becomes exactly the photos shown), downloading all of them
//! on a free event, the way to the cart, and back to the prices from an empty wholesale page.

import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ShopEvent } from '@/api/event';
import type { PhotoBody } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { dealPrice, readCart, replaceCart, setDeal, toCartItem, useCart, type CartKind } from '@/lib/cart';
import { logCart } from '@/lib/cartLog';
import { BULK_DOWNLOAD_PAUSE_MS } from '@/lib/constants';
import { formatBaht } from '@/lib/money';
import { FoundCount } from './SearchOutcome';
import { photoDownloadUrl } from './SearchResults';
import type { PhotoSearchState } from './usePhotoSearch';
import { useT } from './messages';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Opens every photo's download in turn, once the visitor agrees, a pause between two. */
function useBulkDownload(eventKey: string, images: PhotoBody[]) {
  const t = useT();
  const dialog = useDialog();
  const [downloading, setDownloading] = useState(false);
  const downloadAll = async () => {
    const ok = await dialog.confirm({
      title: t('event.bulk.title', { count: images.length }),
      text: t('event.bulk.text'),
      okLabel: t('event.bulk.ok'),
    });
    if (!ok) return;
    setDownloading(true);
    try {
      for (const [i, photo] of images.entries()) {
        if (i > 0) await pause(BULK_DOWNLOAD_PAUSE_MS);
        window.open(photoDownloadUrl(eventKey, photo.id), '_blank');
      }
    } finally {
      setDownloading(false);
    }
  };
  return { downloading, downloadAll };
}

type Props = { event: ShopEvent; kind: CartKind; state: PhotoSearchState; images: PhotoBody[]; busy: boolean };

export function SearchActions({ event, kind, state, images, busy }: Props) {
  const t = useT();
  const dialog = useDialog();
  const navigate = useNavigate();
  const cart = useCart(kind);
  const key = event.event_key;
  const wholesale = kind === 'wholesale';
  const free = event.freeDownload;
  const { downloading, downloadAll } = useBulkDownload(key, images);

  const buyDeal = async () => {
    if (images.length === 0) {
      await dialog.alert({ title: t('event.deal.none.title'), text: t('event.deal.none'), tone: 'warning' });
      return;
    }
    replaceCart(
      kind,
      images.map((p) => toCartItem(p, key, state.phase === 'found' ? state.foundRef : null)),
    );
    setDeal(kind, 'YES', dealPrice(event, kind));
    logCart(kind, readCart(kind), null, key);
    void navigate(wholesale ? '/cart-wholesale' : '/cart');
  };

  return (
    <div className="row search-actions">
      {state.phase === 'found' && <FoundCount count={images.length} bib={state.bib} />}
      {(wholesale || (event.deal && !free)) && (
        <button type="button" className="btn btn-accent" data-testid="buy-all" disabled={busy} onClick={() => void buyDeal()}>
          <span>{event.dealLabel.trim() || t('event.deal.default')}</span>
          {!wholesale && state.phase === 'found' && state.avgPrice > 0 && (
            <span className="buy-all-avg" data-testid="avg-price">
              ({t('event.deal.avg', { price: formatBaht(state.avgPrice) })})
            </span>
          )}
        </button>
      )}
      {free && images.length > 0 && (
        <button
          type="button"
          className="btn btn-primary"
          data-testid="bulk-download"
          disabled={downloading}
          onClick={() => void downloadAll()}
        >
          {t('event.bulk.button')}
        </button>
      )}
      {cart.length > 0 && (
        <Link to={wholesale ? '/cart-wholesale' : '/cart'} className="btn btn-secondary" data-testid="cart-link">
          {t('event.cart.link', { count: cart.length })}
        </Link>
      )}
      {wholesale && images.length === 0 && (
        <Link to={`/${key}`} className="btn btn-secondary" data-testid="back-to-pricing">
          {t('event.wholesale.pricing')}
        </Link>
      )}
    </div>
  );
}
