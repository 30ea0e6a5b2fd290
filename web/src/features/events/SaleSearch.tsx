//! The face search of an event page, shown while the event's sale is open; outside it, the
//! race results alone (a runner still finds their time and certificate, without photos).
//! Each is its own chunk, asked for when the page renders: on a slow network the event's
//! header (its cover is the page's largest paint) does not wait for the search's code, nor
//! share the connection with it.

import { lazy, Suspense } from 'react';
import type { ShopEvent } from '@/api/event';
import { Spinner } from '@/components/Spinner';
import type { CartKind } from '@/lib/cart';
import { saleState } from './sale';
import { useT } from './messages';

const FaceSearch = lazy(() => import('./FaceSearch').then((m) => ({ default: m.FaceSearch })));
const ResultSearch = lazy(() => import('./ResultSearch').then((m) => ({ default: m.ResultSearch })));

export function SaleSearch({ event, kind }: { event: ShopEvent; kind: CartKind }) {
  const t = useT();
  if (saleState(event) !== 'open') {
    return (
      <Suspense fallback={<Spinner label={t('loading')} />}>
        <ResultSearch eventKey={event.event_key} />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<Spinner label={t('loading')} />}>
      <FaceSearch key={`search-${event.event_key}`} event={event} kind={kind} />
    </Suspense>
  );
}
