//! Small pieces the order page's payment blocks share: amount (with the finisher certificate
//! the order buys), sandbox notice, refresh.

import type { InquiryResponse } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { formatBaht } from '@/lib/money';
import { CertificateLine } from './OrderCertificate';
import { certificateOf, hasPhotos } from './orderData';
import { useT, type OrderMessageKey } from './messages';

export function SandboxBanner() {
  const t = useT();
  return (
    <p className="alert alert-info sandbox-banner" role="note" data-testid="sandbox-banner">
      {t('order.sandbox.banner')}
    </p>
  );
}

/** How the amount before the fee is named: the photos', the photos' and the certificate's,
 * or the certificate's alone. */
function breakdownKey(order: InquiryResponse): OrderMessageKey {
  if (certificateOf(order) === null) return 'order.breakdown';
  return hasPhotos(order) ? 'order.breakdown.withCertificate' : 'order.breakdown.certificate';
}

export function AmountLine({ order, struck = false }: { order: InquiryResponse; struck?: boolean }) {
  const t = useT();
  return (
    <div className="order-amount">
      <p>
        {t('order.amount')}:{' '}
        <strong className={struck ? 'strike' : undefined} data-testid="order-amount">
          {t('order.amountValue', { amount: formatBaht(order.amount) })}
        </strong>
      </p>
      {order.payment_fee > 0 && (
        <p className="muted small">
          {t(breakdownKey(order), { photos: formatBaht(order.photos_amount), fee: formatBaht(order.payment_fee) })}
        </p>
      )}
      <CertificateLine order={order} />
    </div>
  );
}

export function RefreshButton({ onRefresh, refreshing }: { onRefresh: () => void; refreshing: boolean }) {
  const t = useT();
  return (
    <button type="button" className="btn btn-secondary" onClick={onRefresh} disabled={refreshing} data-testid="refresh-status">
      {refreshing && <Spinner inline />}
      {t('order.refresh')}
    </button>
  );
}
