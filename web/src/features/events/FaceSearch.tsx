//! The search block both event pages share: the selfie upload with its checks (type, size) and,
//! beside it, the bib number search; the group search ("search with friends": up to three
//! selfies, the visitor's first, searched for any or all of them, each result saying whom it
//! shows); the search states, the results or the highlight
//! masonry, and the actions on the photos found either way (buy all, download all, go to the
//! cart, "not me"). Both searches wait for the terms consent. Buy all and download all cover
//! exactly the photos shown: a photo dismissed as "not me" leaves the results, the kept
//! search and the cart. `kind` picks the cart: the standard one on the event page, the
//! wholesale one on the wholesale page.

import { useState } from 'react';
import { ApiFailure } from '@/api/client';
import { Link, useNavigate } from 'react-router';
import type { ShopEvent } from '@/api/event';
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
import { BULK_DOWNLOAD_PAUSE_MS, MAX_SELFIE_BYTES, SELFIE_TYPES } from '@/lib/constants';
import { formatBaht } from '@/lib/money';
import { logCart } from '@/lib/cartLog';
import { BibSearchForm } from './BibSearchForm';
import { hasConsent } from './ConsentDialog';
import { GroupSelfies } from './GroupSelfies';
import { HighlightGallery } from './HighlightGallery';
import { personOfField, usePersonName } from './PeopleChips';
import { FoundCount, NotFound, refusedBib } from './SearchOutcome';
import { photoDownloadUrl, SearchResults, takeOutOfCart, type CardAction } from './SearchResults';
import { SelfieUpload } from './SelfieUpload';
import type { Uploader } from './upload';
import { useGroupSelfies } from './useGroupSelfies';
import { usePhotoSearch } from './usePhotoSearch';
import { useT } from './messages';

type Props = {
  event: ShopEvent;
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
  const { state, start, startGroup, startBib, busy, images, dismiss } = usePhotoSearch(event, wholesale, {
    upload: uploader,
  });
  const cart = useCart(kind);
  const group = useGroupSelfies();
  const personName = usePersonName();
  /** The selfie of the visitor's latest search on this page: "Me" of a group started after it. */
  const [lastSelfie, setLastSelfie] = useState<File | null>(null);
  const [matchAll, setMatchAll] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const key = event.event_key;
  const free = event.freeDownload;
  const dealOn = dealOffered(event, kind);
  const showDeal = wholesale || (event.deal && !free);
  const cardAction: CardAction = free ? 'download' : wholesale ? 'none' : 'cart';
  const refused = refusedBib(state);

  /** With the all-photos deal a new search empties the cart, once the visitor agrees (only
   * then is the search put off until an answer). */
  const cartStays = () => dealOn && readCart(kind).length > 0;
  const confirmCartGoes = async (): Promise<boolean> => {
    const ok = await dialog.confirm({
      title: t('event.upload.clearCart.title'),
      text: t('event.upload.clearCart'),
      okLabel: t('event.upload.clearCart.ok'),
      tone: 'warning',
    });
    if (ok) clearCart(kind);
    return ok;
  };

  /** The checks of a chosen selfie (JPEG or PNG, at most 5 MB), told in a dialog: whether it may be used. */
  const selfieOk = async (file: File): Promise<boolean> => {
    if (!(SELFIE_TYPES as readonly string[]).includes(file.type)) {
      await dialog.alert({ title: t('event.upload.wrongType.title'), text: t('event.upload.wrongType'), tone: 'error' });
      return false;
    }
    if (file.size > MAX_SELFIE_BYTES) {
      await dialog.alert({ title: t('event.upload.tooLarge.title'), text: t('event.upload.tooLarge'), tone: 'error' });
      return false;
    }
    return true;
  };

  const onFile = async (file: File) => {
    // The consent dialog covers the page until answered; a selfie chosen around it anyway
    // (an old browser without modal dialogs) is not searched with.
    if (!hasConsent(key)) return;
    if (!(await selfieOk(file))) return;
    if (cartStays() && !(await confirmCartGoes())) return;
    setLastSelfie(file);
    start(file);
  };

  const onGroupFile = async (file: File) => {
    if (!hasConsent(key)) return;
    if (await selfieOk(file)) group.add(file);
  };

  const onGroupSearch = async () => {
    const selfies = group.selfies ?? [];
    if (!hasConsent(key)) return;
    const files = selfies.map((s) => s.file);
    const [mine] = files;
    if (mine === undefined) return;
    if (cartStays() && !(await confirmCartGoes())) return;
    setLastSelfie(mine);
    if (files.length === 1) start(mine);
    else startGroup(files, matchAll ? 'all' : 'any');
  };

  const leaveGroup = () => {
    group.close();
    setMatchAll(false);
  };

  /** A group search refused for one person's selfie (no face in it) names that person. */
  const refusedPerson =
    state.phase === 'error' && state.error instanceof ApiFailure ? personOfField(state.error.field) : null;

  const onBib = async (bib: string) => {
    // A bib search also uses the faces in the event's photos: the same consent first.
    if (!hasConsent(key)) return;
    if (cartStays() && !(await confirmCartGoes())) return;
    startBib(bib);
  };

  const buyDeal = async () => {
    if (images.length === 0) {
      await dialog.alert({ title: t('event.deal.none.title'), text: t('event.deal.none'), tone: 'warning' });
      return;
    }
    replaceCart(
      kind,
      images.map((p) => toCartItem(p, key, state.phase === 'found' ? state.foundRef : null)),
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
      <div className="search-forms">
        <SelfieUpload
          state={state}
          busy={busy}
          onFile={(f) => void onFile(f)}
          onAddFriend={() => group.open(lastSelfie)}
          group={
            group.selfies === null ? undefined : (
              <GroupSelfies
                selfies={group.selfies}
                matchAll={matchAll}
                busy={busy}
                onAdd={(f) => void onGroupFile(f)}
                onRemove={group.remove}
                onMatchAll={setMatchAll}
                onSearch={() => void onGroupSearch()}
                onCancel={leaveGroup}
              />
            )
          }
        />
        <BibSearchForm
          busy={busy}
          searching={state.phase === 'searching' && state.by === 'bib'}
          fieldError={refused === null ? null : errorText(refused)}
          onSearch={(bib) => void onBib(bib)}
          initial={state.phase === 'found' ? (state.bib ?? '') : ''}
        />
      </div>

      {state.phase === 'error' && refused === null && (
        <div className="alert alert-danger" role="alert" data-testid="search-error">
          <strong>{t(state.failed === 'search' ? 'event.search.failed' : 'event.search.error')}</strong>
          {state.error !== null && (
            <div>
              {refusedPerson !== null && <span data-testid="search-error-person">{personName(refusedPerson)}: </span>}
              {errorText(state.error)}
            </div>
          )}
        </div>
      )}

      {state.phase === 'notFound' && <NotFound noFace={state.noFace} bib={state.bib} all={state.all} />}

      <div className="row search-actions">
        {state.phase === 'found' && <FoundCount count={images.length} bib={state.bib} />}
        {showDeal && (
          <button
            type="button"
            className="btn btn-accent"
            data-testid="buy-all"
            disabled={busy}
            onClick={() => void buyDeal()}
          >
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

      {state.phase === 'found' && (
        <SearchResults
          eventKey={key}
          photos={images}
          kind={kind}
          action={cardAction}
          onNotMe={notMe}
          people={state.people}
          foundRef={state.foundRef}
        />
      )}
      {(state.phase === 'idle' || state.phase === 'error') && <HighlightGallery eventKey={key} />}
    </div>
  );
}

