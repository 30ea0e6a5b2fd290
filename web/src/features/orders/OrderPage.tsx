//! Order page (/download/{q}): the order's status, how to pay it while unpaid, and its
//! photos (and the finisher certificate it buys) to view and download once paid. An order
//! of a certificate alone shows no photos, samples, nor ZIPs: only its certificate.

import './orders.css';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiFailure } from '@/api/client';
import { isYes, type InquiryResponse } from '@/api/types';
import { Spinner } from '@/components/Spinner';
import { thumbnailProps } from '@/components/thumbnail';
import { type Translate } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { CertificateBlock } from './OrderCertificate';
import {
  certificateOf,
  hasPhotos,
  isFreeOrder,
  parseOrderImages,
  parsePaidImages,
  statusKey,
  thumbnailUrl,
} from './orderData';
import { PaidBlock } from './PaidBlock';
import { PaymentBlock } from './PaymentBlock';
import { SendToLine } from './SendToLine';
import { useOrderInquiry } from './api';
import { useOrderFailurePopup } from './useOrder';
import { BangkokTime } from '@/components/BangkokTime';
import { useT, type OrderMessageKey } from './messages';

const isNotFound = (e: unknown) => e instanceof ApiFailure && e.code === 'order_not_found';

export function OrderPage() {
  const t = useT();
  const errorText = useErrorText();
  const uuid = useParams().q ?? '';
  const query = useOrderInquiry(uuid);
  const failurePopup = useOrderFailurePopup();
  const [refreshing, setRefreshing] = useState(false);
  const order = query.data;

  // The popup comes once per failed first load; a failing background poll stays quiet
  // (the page keeps showing the last answer and tries again).
  const alertedAt = useRef(0);
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (!isError || order !== undefined || isNotFound(error) || alertedAt.current === errorUpdatedAt) return;
    alertedAt.current = errorUpdatedAt;
    void failurePopup(errorText(error));
  }, [isError, error, errorUpdatedAt, order, failurePopup, errorText]);

  const refresh = async () => {
    setRefreshing(true);
    const result = await query.refetch();
    setRefreshing(false);
    if (result.isError && order !== undefined) void failurePopup(errorText(result.error));
  };

  if (order === undefined && isNotFound(error)) {
    return (
      <section className="page narrow stack order-page">
        <OrderHeader uuid={uuid} />
        <div className="card stack center" data-testid="order-not-found">
          <h2>{t('order.notFound.title')}</h2>
          <p>{t('order.notFound.text')}</p>
          <p>
            <Link className="btn btn-primary" to="/find-order">
              {t('order.findLink')}
            </Link>
          </p>
        </div>
      </section>
    );
  }

  return (
    <section className="page narrow stack order-page">
      <OrderHeader uuid={uuid} order={order} />
      <StatusBlock order={order} />
      {order === undefined ? (
        query.isError ? (
          <div className="card stack center">
            <p className="danger">{t('order.loadFailed')}</p>
            <p>
              <button type="button" className="btn btn-primary" onClick={() => void refresh()} disabled={refreshing}>
                {t('retry')}
              </button>
            </p>
          </div>
        ) : null
      ) : (
        <OrderBody order={order} uuid={uuid} onRefresh={() => void refresh()} refreshing={refreshing} />
      )}
      {/* Orders that can still be paid, or are: an ended one has no news to send. */}
      {(order?.payment_status === 'INITIAL' || order?.payment_status === 'PAID') && <SendToLine uuid={uuid} />}
      <footer className="card stack order-footer">
        {order !== undefined && order.receipt_ref !== '' && (
          <p data-testid="receipt-ref">{t('order.receipt', { ref: order.receipt_ref })}</p>
        )}
        <p>
          <Link to="/find-order" data-testid="find-order-link">
            {t('order.findLink')}
          </Link>
        </p>
      </footer>
    </section>
  );
}

function OrderHeader({ uuid, order }: { uuid: string; order?: InquiryResponse }) {
  const t = useT();
  return (
    <header className="card order-header">
      <h1>{t('order.title')}</h1>
      <p>
        {t('order.id')}: <code className="order-id" data-testid="order-id">{uuid}</code>
      </p>
      {order && order.event_title !== '' && (
        <p>
          {t('order.event')}: {order.event_key ? <Link to={`/${order.event_key}`}>{order.event_title}</Link> : order.event_title}
        </p>
      )}
      {order && order.create_date !== '' && (
        <p className="muted">
          {t('order.createDate')}: <BangkokTime value={order.create_date} />
        </p>
      )}
      {/* Masked by the server (081****678, s***@example.com): shown as they come, never
          read as a number or an address. */}
      {order && order.mobile !== '' && (
        <p className="muted">
          {t('order.contact.mobile')}: <span data-testid="order-mobile">{order.mobile}</span>
        </p>
      )}
      {order && order.email !== '' && (
        <p className="muted">
          {t('order.contact.email')}: <span data-testid="order-email">{order.email}</span>
        </p>
      )}
    </header>
  );
}

function statusText(t: Translate<OrderMessageKey>, order: InquiryResponse): string {
  if (order.payment_status === 'INITIAL' && order.payment_channel === 'AM') return t('order.status.waitApprove');
  if (order.payment_status === 'PAID' && isFreeOrder(order)) return t('order.status.free');
  const key = statusKey(order.payment_status);
  return key ? t(key) : order.payment_status;
}

function StatusBlock({ order }: { order?: InquiryResponse }) {
  const t = useT();
  return (
    <div
      className={`card order-status status-${(order?.payment_status ?? 'loading').toLowerCase()}`}
      data-testid="order-status"
      data-status={order?.payment_status}
      role="status"
    >
      <span className="muted">{t('order.status.label')}: </span>
      {order ? (
        <strong>{statusText(t, order)}</strong>
      ) : (
        <>
          <Spinner inline /> <strong>{t('loading')}</strong>
        </>
      )}
    </div>
  );
}

type BodyProps = { order: InquiryResponse; uuid: string; onRefresh: () => void; refreshing: boolean };

function OrderBody({ order, uuid, onRefresh, refreshing }: BodyProps) {
  const t = useT();
  const status = order.payment_status;
  const certificate = certificateOf(order);

  if (status === 'INITIAL') {
    const samples = parseOrderImages(order.images_order);
    // Photos bought but none left to sell; an order of a certificate alone has none to show.
    if (samples.length === 0 && hasPhotos(order)) {
      return (
        <p className="card alert alert-danger" data-testid="storage-expired" data-reason="end-of-sale">
          {t('order.endOfSale')}
        </p>
      );
    }
    return (
      <>
        <PaymentBlock order={order} uuid={uuid} onRefresh={onRefresh} refreshing={refreshing} />
        {samples.length > 0 && (
          <section className="stack" aria-labelledby="samples-title">
            <h2 id="samples-title">{t('order.samples.title', { count: samples.length })}</h2>
            <ul className="photo-grid sample-photos" data-testid="sample-photos">
              {samples.map((s, index) => (
                <li key={s.thumbnail_file_name} className="photo-card">
                  <img
                    src={thumbnailUrl(order.event_key, s.thumbnail_file_name)}
                    alt={s.original_file_name}
                    {...thumbnailProps(index)}
                  />
                </li>
              ))}
            </ul>
          </section>
        )}
      </>
    );
  }

  if (status === 'PAID') {
    const delivered = certificate && <CertificateBlock certificate={certificate} />;
    if (!hasPhotos(order)) return delivered;
    const images = parsePaidImages(order.images_paid);
    if (isYes(order.storage_expired) || (images.length === 0 && isYes(order.is_original_image_created))) {
      return (
        <>
          <p className="card alert alert-danger" data-testid="storage-expired" data-reason="storage">
            {t('order.storageExpired')}
          </p>
          {delivered}
        </>
      );
    }
    return <PaidBlock order={order} uuid={uuid} images={images} certificate={delivered} />;
  }

  return <PaymentBlock order={order} uuid={uuid} onRefresh={onRefresh} refreshing={refreshing} />;
}
