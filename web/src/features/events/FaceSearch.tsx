//! The search block both event pages share: the selfie upload with its checks (type, size)
//! and, beside it, the bib number search and finding one's race result (whose rows lead to
//! their bib's photos); the group search ("search with friends": up to
//! three selfies, the visitor's first, searched for any or all of them, each result saying
//! whom it shows); the search states, the results or the highlight masonry, and the actions
//! on the photos found either way (`SearchActions`; "not me" on each photo). Both searches
//! wait for the terms consent. Buy all and download all cover exactly the photos shown: a
//! photo dismissed as "not me" leaves the results, the kept search and the cart. After a
//! search, photos that became searchable since are told of, with "search again" (`NewPhotos`);
//! after a face search, while the page holds the selfie, the slot `afterFaceSearch` (the
//! app's offer of alerts of new photos of that face). `kind` picks the cart: the standard one
//! on the event page, the wholesale one on the wholesale page.

import { useState } from 'react';
import type { ShopEvent } from '@/api/event';
import { useSlot } from '@/components/slots';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { dealOffered, type CartKind } from '@/lib/cart';
import { BibSearchForm } from './BibSearchForm';
import { hasConsent } from './ConsentDialog';
import { GroupSelfies } from './GroupSelfies';
import { HighlightGallery } from './HighlightGallery';
import { NewPhotos } from './NewPhotos';
import { SearchActions } from './SearchActions';
import { ResultSearch } from './ResultSearch';
import { NotFound, refusedBib, SearchError } from './SearchOutcome';
import { SearchResults, takeOutOfCart, type CardAction } from './SearchResults';
import { SelfieUpload } from './SelfieUpload';
import type { Uploader } from './upload';
import { useGroupSelfies } from './useGroupSelfies';
import { usePhotoSearch } from './usePhotoSearch';
import { useSearchGuards } from './useSearchGuards';
import { useT } from './messages';

type Props = {
  event: ShopEvent;
  kind: CartKind;
  /** Stands in for the real PUT in tests. */
  uploader?: Uploader;
};

export function FaceSearch({ event, kind, uploader }: Props) {
  const t = useT();
  const errorText = useErrorText();
  const toast = useToast();
  const wholesale = kind === 'wholesale';
  const search = usePhotoSearch(event, wholesale, { upload: uploader });
  const { state, busy, images } = search;
  const { selfieOk, cartStays, confirmCartGoes } = useSearchGuards(kind, dealOffered(event, kind));
  const group = useGroupSelfies();
  /** The selfie of the visitor's latest search on this page: "Me" of a group started after it. */
  const [lastSelfie, setLastSelfie] = useState<File | null>(null);
  const [matchAll, setMatchAll] = useState(false);
  const key = event.event_key;
  const cardAction: CardAction = event.freeDownload ? 'download' : wholesale ? 'none' : 'cart';
  const refused = refusedBib(state);
  const since = state.phase === 'found' || state.phase === 'notFound' ? state.since : null;
  const AfterFaceSearch = useSlot('afterFaceSearch');
  // A face search ran, its selfie had a face; `lastSelfie` is that selfie while the page holds it.
  const faceSearched =
    (state.phase === 'found' || (state.phase === 'notFound' && !state.noFace)) && state.bib === null;

  const onFile = async (file: File) => {
    // The consent dialog covers the page until answered; a selfie chosen around it anyway
    // (an old browser without modal dialogs) is not searched with.
    if (!hasConsent(key)) return;
    if (!(await selfieOk(file))) return;
    if (cartStays() && !(await confirmCartGoes())) return;
    setLastSelfie(file);
    search.start(file);
  };

  const onGroupFile = async (file: File) => {
    if (!hasConsent(key)) return;
    if (await selfieOk(file)) group.add(file);
  };

  const onGroupSearch = async () => {
    const files = (group.selfies ?? []).map((s) => s.file);
    if (!hasConsent(key)) return;
    const [mine] = files;
    if (mine === undefined) return;
    if (cartStays() && !(await confirmCartGoes())) return;
    setLastSelfie(mine);
    if (files.length === 1) search.start(mine);
    else search.startGroup(files, matchAll ? 'all' : 'any');
  };

  const onBib = async (bib: string) => {
    // A bib search also uses the faces in the event's photos: the same consent first.
    if (!hasConsent(key)) return;
    if (cartStays() && !(await confirmCartGoes())) return;
    search.startBib(bib);
  };

  const onAgain = async () => {
    const again = search.again;
    if (again === null || (cartStays() && !(await confirmCartGoes()))) return;
    again();
  };

  const notMe = (photoId: number) => {
    search.dismiss(photoId);
    takeOutOfCart(kind, photoId, key);
    toast.success(t('event.notMe.done'));
  };

  const groupForm = group.selfies === null ? undefined : (
    <GroupSelfies
      selfies={group.selfies}
      matchAll={matchAll}
      busy={busy}
      onAdd={(f) => void onGroupFile(f)}
      onRemove={group.remove}
      onMatchAll={setMatchAll}
      onSearch={() => void onGroupSearch()}
      onCancel={() => {
        group.close();
        setMatchAll(false);
      }}
    />
  );

  return (
    <div className="stack face-search">
      <div className="search-forms">
        <SelfieUpload
          state={state}
          busy={busy}
          onFile={(f) => void onFile(f)}
          onAddFriend={() => group.open(lastSelfie)}
          group={groupForm}
        />
        <BibSearchForm
          busy={busy}
          searching={state.phase === 'searching' && state.by === 'bib'}
          fieldError={refused === null ? null : errorText(refused)}
          onSearch={(bib) => void onBib(bib)}
          initial={state.phase === 'found' ? (state.bib ?? '') : ''}
        />
        <ResultSearch eventKey={key} busy={busy} onPhotos={(bib) => void onBib(bib)} />
      </div>
      {since !== null && (
        <NewPhotos
          eventKey={key}
          since={since}
          onAgain={search.again && (() => void onAgain())}
        />
      )}
      {AfterFaceSearch && faceSearched && lastSelfie !== null && <AfterFaceSearch eventKey={key} selfie={lastSelfie} />}
      {state.phase === 'error' && refused === null && <SearchError state={state} />}
      {state.phase === 'notFound' && <NotFound noFace={state.noFace} bib={state.bib} all={state.all} />}
      <SearchActions event={event} kind={kind} state={state} images={images} busy={busy} />
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
