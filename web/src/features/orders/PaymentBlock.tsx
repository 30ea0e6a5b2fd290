//! The payment part of an unpaid or closed order: PromptPay QR, card, wholesale approval
//! request, or the notice that the payment window closed / the order was cancelled.

import { Link } from 'react-router';
import type { InquiryResponse, PaymentGateway } from '@/api/types';
import { QrCode } from '@/components/QrCode';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useLanguage, type Translate } from '@/i18n';
import { CONTACT, ORDER_QR_PX } from '@/lib/constants';
import { copyText } from '@/lib/inAppBrowser';
import { formatBaht } from '@/lib/money';
import { CardPayment } from './CardPayment';
import { hasPhotos } from './orderData';
import { AmountLine, RefreshButton, SandboxBanner } from './parts';
import { formatBangkokDateTime } from '@/lib/dates';
import { useT, type OrderMessageKey } from './messages';

type Props = { order: InquiryResponse; uuid: string; onRefresh: () => void; refreshing: boolean };

export function PaymentBlock({ order, uuid, onRefresh, refreshing }: Props) {
  switch (order.payment_status) {
    case 'INITIAL':
      if (order.payment_channel === 'PP') return <PromptPay order={order} onRefresh={onRefresh} refreshing={refreshing} />;
      if (order.payment_channel === 'CC') return <CardPayment order={order} uuid={uuid} />;
      if (order.payment_channel === 'AM')
        return <Approval order={order} uuid={uuid} onRefresh={onRefresh} refreshing={refreshing} />;
      return <WaitingOrder />;
    case 'EXPIRED':
    case 'CANCELLED':
      return <Closed order={order} />;
    default:
      return null;
  }
}

/** GBP and OPN hand out a picture of the QR; PromptPay and the sandbox hand out its text. */
const QR_IMAGE_GATEWAYS: ReadonlySet<PaymentGateway> = new Set(['GBP', 'OPN']);

function PromptPay({ order, onRefresh, refreshing }: Omit<Props, 'uuid'>) {
  const t = useT();
  const [lang] = useLanguage();
  const url = order.qrcode_url;
  return (
    <section className="card stack center" aria-labelledby="pp-title">
      <h2 id="pp-title">{t('order.pp.title')}</h2>
      {order.sandbox && <SandboxBanner />}
      <AmountLine order={order} />
      {url === '' ? (
        <p className="muted">{t('order.pp.noQr')}</p>
      ) : QR_IMAGE_GATEWAYS.has(order.payment_gateway) ? (
        <img
          className="order-qr"
          src={url}
          alt={t('order.pp.qrAlt')}
          width={ORDER_QR_PX}
          height={ORDER_QR_PX}
          data-testid="payment-qr-image"
        />
      ) : (
        <div className="order-qr">
          <QrCode text={url} size={ORDER_QR_PX} level="Q" label={t('order.pp.qrAlt')} testId="payment-qr" />
        </div>
      )}
      {order.expire_date !== '' && <p className="danger">{t('order.expireAt', { date: formatBangkokDateTime(order.expire_date, lang) })}</p>}
      <p className="muted">{t('order.pp.help')}</p>
      {order.sandbox && url !== '' && (
        <p>
          <a className="btn btn-accent" href={url} data-testid="sandbox-pay-link">
            {t('order.sandbox.pay')}
          </a>
        </p>
      )}
      <p>
        <RefreshButton onRefresh={onRefresh} refreshing={refreshing} />
      </p>
    </section>
  );
}

/** The text a wholesale buyer sends to the admin to have an extra-photos order approved. The
 * inquiry's mobile is masked (081****678): it is quoted as it is, and the find-order link
 * carries no number, since the masked one would only be refused there. */
export function approvalRequestText(
  t: Translate<OrderMessageKey>,
  origin: string,
  order: Pick<InquiryResponse, 'am_order_ref' | 'mobile'>,
  uuid: string,
): string {
  const lines = [t('order.am.line.head'), t('order.am.line.order', { url: `${origin}/download/${uuid}` })];
  // The earlier order is named by a masked reference that opens nothing; the operator
  // sees the order itself in the console.
  if (order.am_order_ref) lines.push(t('order.am.line.ref', { ref: order.am_order_ref }));
  lines.push(t('order.am.line.find', { url: `${origin}/find-order` }));
  if (order.mobile) lines.push(t('order.am.line.mobile', { mobile: order.mobile }));
  return lines.join('\n');
}

function Approval({ order, uuid, onRefresh, refreshing }: Props) {
  const t = useT();
  const toast = useToast();
  const text = approvalRequestText(t, window.location.origin, order, uuid);
  const copy = async () => {
    if (await copyText(text)) toast.copied(t('copied'));
    else toast.copyFailed(`${t('copyFailed.title')} / ${t('copyFailed.text')}`);
  };
  return (
    <section className="card stack" aria-labelledby="am-title">
      <h2 id="am-title">{t('order.am.title')}</h2>
      {order.sandbox && <SandboxBanner />}
      <AmountLine order={order} struck />
      <p>{t('order.am.help', { line: CONTACT.line })}</p>
      <div className="field">
        <label htmlFor="am-request">{t('order.am.requestLabel')}</label>
        <textarea
          id="am-request"
          className="am-request"
          readOnly
          value={text}
          rows={text.split('\n').length * 2}
          data-testid="am-request-text"
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={() => void copy()} data-testid="copy-request">
          {t('order.am.copy')}
        </button>
        <a className="btn btn-secondary" href={CONTACT.lineUrl} target="_blank" rel="noopener noreferrer">
          {t('order.am.contact')}
        </a>
        <RefreshButton onRefresh={onRefresh} refreshing={refreshing} />
      </div>
      <p className="muted small">{t('order.am.note')}</p>
    </section>
  );
}

function Closed({ order }: { order: InquiryResponse }) {
  const t = useT();
  // An order of a certificate alone is ordered again from the runner's result.
  const photos = hasPhotos(order);
  return (
    <section className="card stack center" data-testid="order-closed">
      <p className="alert alert-danger" data-testid="order-closed-why">
        {order.payment_status === 'EXPIRED'
          ? t(photos ? 'order.closed.expired' : 'order.closed.expiredCertificate')
          : order.end_reason === 'photo_withdrawn'
            ? t('order.closed.withdrawn', { count: order.photos_withdrawn })
            : t(photos ? 'order.closed.cancelled' : 'order.closed.cancelledCertificate')}
      </p>
      {order.refund_due > 0 && (
        <p className="alert alert-warning" data-testid="order-refund-due">
          {t('order.closed.refund', { amount: formatBaht(order.refund_due), line: CONTACT.line })}
        </p>
      )}
      {order.event_key !== '' && (
        <p>
          <Link className="btn btn-primary" to={`/${order.event_key}`} data-testid="search-again">
            {t(photos ? 'order.searchAgain' : 'order.findResultAgain')}
          </Link>
        </p>
      )}
    </section>
  );
}

function WaitingOrder() {
  const t = useT();
  return (
    <section className="card">
      <Spinner label={t('order.waitingOrder')} />
    </section>
  );
}
