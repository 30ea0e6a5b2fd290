//! What the app puts in the feature pages' slots (`components/slots.tsx`): the new-photo
//! alerts on the event page. Each part is its own chunk, loaded when it is first shown: the
//! offer once a face search has run, the answer back from LINE only on an address that
//! carries one (`?alert=`), so an event page opened plainly downloads none of it.

import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import type { Slots } from '@/components/slots';

const AlertOffer = lazy(() => import('@/features/alerts/AlertOffer').then((m) => ({ default: m.AlertOffer })));
const AlertOutcome = lazy(() => import('@/features/alerts/AlertOutcome').then((m) => ({ default: m.AlertOutcome })));

function AfterFaceSearch(props: { eventKey: string; selfie: File }) {
  return (
    <Suspense fallback={null}>
      <AlertOffer {...props} />
    </Suspense>
  );
}

function EventNotice() {
  const [params] = useSearchParams();
  if (!params.has('alert')) return null;
  return (
    <Suspense fallback={null}>
      <AlertOutcome />
    </Suspense>
  );
}

export const slots: Slots = { afterFaceSearch: AfterFaceSearch, eventNotice: EventNotice };
