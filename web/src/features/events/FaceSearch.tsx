//! The face search block both event pages share: upload with the spec's checks (§5), the
//! search states (§4), the results or the highlight masonry, and the actions on the photos
//! found (buy all, download all, go to the cart, "not me"). Buy all and download all cover
//! exactly the photos shown: a photo dismissed as "not me" leaves the results, the kept
//! search and the cart. `kind` picks the cart: the standard one on the event page, the
//! wholesale one on the wholesale page.

import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { EventBody } from '@/api/types';
import { isYes } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import {
  clearCart,
  dealOffered,
  dealPrice,
  readCart,
  replaceCart,
  setDeal,
  toCartItem,
  useCart,
  type CartKind,
} from '@/lib/cart';
import { BULK_DOWNLOAD_PAUSE_MS, CONTACT, MAX_SELFIE_BYTES, SELFIE_TYPES } from '@/lib/constants';
import { formatBaht } from '@/lib/money';
import { logCart } from '@/lib/cartLog';
import { hasConsent } from './ConsentDialog';
import { HighlightGallery } from './HighlightGallery';
import { photoDownloadUrl, SearchResults, takeOutOfCart, type CardAction } from './SearchResults';
import { SelfieUpload } from './SelfieUpload';
import type { Uploader } from './upload';
import { useFaceSearch } from './useFaceSearch';
import { useT } from './messages';

type Props = {
  event: EventBody;
  kind: CartKind;
  /** Stands in for the real PUT in tests. */
  uploader?: Uploader;
};

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function FaceSearch({ event, kind, uploader }: Props) {
  const t = useT();
  const errorText = useErrorText();
  const dialog = useDialog();
  const toast = useToast();
  const navigate = useNavigate();
  const wholesale = kind === 'wholesale';
  const { state, start, busy, images, dismiss } = useFaceSearch(event, wholesale, uploader);
  const cart = useCart(kind);
  const [downloading, setDownloading] = useState(false);
  const key = event.event_key;
  const free = isYes(event.is_free_download);
  const dealOn = dealOffered(event, kind);
  const showDeal = wholesale || (isYes(event.is_mhao) && !free);
  const cardAction: CardAction = free ? 'download' : wholesale ? 'none' : 'cart';

  const onFile = async (file: File) => {
    // The consent dialog covers the page until answered; a selfie chosen around it anyway
    // (an old browser without modal dialogs) is not searched with.
    if (!hasConsent(key)) return;
    if (!(SELFIE_TYPES as readonly string[]).includes(file.type)) {
      await dialog.alert({ title: t('event.upload.wrongType.title'), text: t('event.upload.wrongType'), tone: 'error' });
      return;
    }
    if (file.size > MAX_SELFIE_BYTES) {
      await dialog.alert({ title: t('event.upload.tooLarge.title'), text: t('event.upload.tooLarge'), tone: 'error' });
      return;
    }
    if (dealOn && readCart(kind).length > 0) {
      const ok = await dialog.confirm({
        title: t('event.upload.clearCart.title'),
        text: t('event.upload.clearCart'),
        okLabel: t('event.upload.clearCart.ok'),
        tone: 'warning',
      });
      if (!ok) return;
      clearCart(kind);
    }
    start(file);
  };

  const buyDeal = async () => {
    if (images.length === 0) {
      await dialog.alert({ title: t('event.deal.none.title'), text: t('event.deal.none'), tone: 'warning' });
      return;
    }
    replaceCart(
      kind,
      images.map((p) => toCartItem(p, key)),
    );
    setDeal(kind, 'YES', dealPrice(event, kind) ?? null);
    logCart(kind, readCart(kind), null, key);
    void navigate(wholesale ? '/cart-wholesale' : '/cart');
  };

  const notMe = (photoId: number) => {
    dismiss(photoId);
    takeOutOfCart(kind, photoId, key);
    toast.success(t('event.notMe.done'));
  };

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
        window.open(photoDownloadUrl(key, photo.id), '_blank');
      }
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="stack face-search">
      <SelfieUpload state={state} busy={busy} onFile={(f) => void onFile(f)} />

      {state.phase === 'error' && (
        <div className="alert alert-danger" role="alert" data-testid="search-error">
          <strong>{t(state.failed === 'search' ? 'event.search.failed' : 'event.search.error')}</strong>
          {state.error !== null && <div>{errorText(state.error)}</div>}
        </div>
      )}

      {state.phase === 'notFound' && (
        <div className="alert alert-info" data-testid="search-not-found">
          <strong>{state.noFace ? t('event.search.noFace') : t('event.search.notFound')}</strong>
          <div>{t('event.search.notFoundHelp', { line: CONTACT.line })}</div>
        </div>
      )}

      <div className="row search-actions">
        {state.phase === 'found' && (
          <strong data-testid="search-count">{t('event.search.found', { count: images.length })}</strong>
        )}
        {showDeal && (
          <button
            type="button"
            className="btn btn-accent"
            data-testid="buy-all"
            disabled={busy}
            onClick={() => void buyDeal()}
          >
            <span>{event.caption_button_buy_all.trim() || t('event.deal.default')}</span>
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

      {state.phase === 'found' && (
        <SearchResults eventKey={key} photos={images} kind={kind} action={cardAction} onNotMe={notMe} />
      )}
      {(state.phase === 'idle' || state.phase === 'error') && <HighlightGallery eventKey={key} />}
    </div>
  );
}
