//! Console order detail (/admin/orders/:uuid, admins): every field of the order, its
//! payment trail, and what an operator may do with it: approve an AM order the buyer asked
//! approval for, confirm a PromptPay order against the bank slip, send the e-mail again.

import './admin-orders.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { failureCode } from '@/api/client';
import { isPaymentChannel, isPaymentStatus } from '@/api/types';
import { DataTable } from '@/components/DataTable';
import { useDialog } from '@/components/Dialog';
import { ErrorAlert } from '@/components/ErrorAlert';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { copyText } from '@/lib/inAppBrowser';
import { formatBaht } from '@/lib/money';
import { adminKeys } from '../shell/api';
import { AdminOnly } from '../shell/operator';
import { awaitsApproval } from './labels';
import { ordersMessages } from './messages';
import {
  approveOrder,
  confirmOrder,
  orderKey,
  resendEmail,
  useAdminOrder,
  type AdminOrder,
  type OperatorOutcome,
} from './api';

const SATANG_PER_BAHT = 100;

export function OrderDetailPage() {
  const t = useDictionary(ordersMessages);
  const { uuid = '' } = useParams();
  return (
    <section className="page narrow admin-order stack">
      <p>
        <Link to="/admin/orders">← {t('adminOrders.title')}</Link>
      </p>
      <h1>{t('adminOrders.detail.title')}</h1>
      <AdminOnly>
        <OrderDetail key={uuid} uuid={uuid} />
      </AdminOnly>
    </section>
  );
}

/** The buyer's order page, to send again by the shop's chat when neither mail nor SMS
 * reaches them. */
function OrderPageLink({ url }: { url: string }) {
  const t = useDictionary(ordersMessages);
  const toast = useToast();
  const copy = async () => {
    if (await copyText(url)) toast.copied(t('adminOrders.detail.copied'));
    else toast.copyFailed(t('adminOrders.detail.copyFailed'));
  };
  return (
    <span className="row">
      <code className="admin-order-page-url">{url}</code>
      <button type="button" className="btn btn-small btn-secondary" onClick={() => void copy()} data-testid="copy-order-page">
        {t('adminOrders.detail.copyLink')}
      </button>
    </span>
  );
}

function OrderDetail({ uuid }: { uuid: string }) {
  const t = useDictionary(ordersMessages);
  const common = useT();
  const [lang] = useLanguage();
  const order = useAdminOrder(uuid);

  if (order.isPending) return <Spinner label={common('loading')} />;
  if (order.isError) return <ErrorAlert error={order.error} testId="order-load-error" />;
  const o = order.data;
  const when = (value: string | null | undefined) => (value ? formatBangkokDateTime(value, lang) : '—');
  const rows: [string, ReactNode, string][] = [
    [t('adminOrders.field.uuid'), <code key="uuid">{o.uuid}</code>, 'uuid'],
    [
      t('adminOrders.field.event'),
      <>
        {o.event_title} <code className="admin-order-key">{o.event_key}</code>
      </>,
      'event',
    ],
    [t('adminOrders.field.mobile'), o.mobile, 'mobile'],
    [t('adminOrders.field.email'), o.email || '—', 'email'],
    [
      t('adminOrders.field.status'),
      isPaymentStatus(o.payment_status) ? t(`adminOrders.status.${o.payment_status}`) : o.payment_status,
      'status',
    ],
    [
      t('adminOrders.field.channel'),
      isPaymentChannel(o.payment_channel) ? t(`adminOrders.channel.${o.payment_channel}`) : o.payment_channel,
      'channel',
    ],
    [t('adminOrders.field.gateway'), o.payment_gateway, 'gateway'],
    [t('adminOrders.field.imageCount'), common('photos', { count: o.image_count }), 'image-count'],
    [t('adminOrders.field.paidAmount'), `${formatBaht(o.paid_amount)} ${common('baht')}`, 'paid-amount'],
    [t('adminOrders.field.receiptRef'), o.receipt_ref || '—', 'receipt-ref'],
    [
      t('adminOrders.field.amOrderRef'),
      o.am_order_ref ? (
        <Link to={`/admin/orders/${encodeURIComponent(o.am_order_ref)}`}>{o.am_order_ref}</Link>
      ) : (
        '—'
      ),
      'am-order-ref',
    ],
    [t('adminOrders.field.createdAt'), when(o.created_at), 'created-at'],
    [t('adminOrders.field.paidAt'), when(o.paid_at), 'paid-at'],
    [t('adminOrders.field.orderPage'), <OrderPageLink key="page" url={o.order_page_url} />, 'order-page'],
  ];
  if (o.end_reason) {
    rows.push([
      t('adminOrders.field.endReason'),
      o.end_reason === 'photo_withdrawn' ? t('adminOrders.endReason.photoWithdrawn') : o.end_reason,
      'end-reason',
    ]);
  }
  if (o.certificate_bib) {
    rows.push([t('adminOrders.field.certificate'), t('adminOrders.certificateOf', { bib: o.certificate_bib }), 'certificate']);
  }
  if (o.refund_due) {
    rows.push([
      t('adminOrders.field.refundDue'),
      <strong key="refund" className="admin-order-refund">{`${formatBaht(o.refund_due)} ${common('baht')}`}</strong>,
      'refund-due',
    ]);
  }

  return (
    <div className="stack">
      {awaitsApproval(o) && (
        <p className="alert alert-info admin-order-request" data-testid="am-request">
          {t('adminOrders.detail.amWaiting')}
        </p>
      )}
      <div className="card">
        <dl className="admin-order-fields">
          {rows.map(([label, value, name]) => (
            <div key={name} className="admin-order-field">
              <dt>{label}</dt>
              <dd data-testid={`order-${name}`}>{value}</dd>
            </div>
          ))}
        </dl>
        <p>
          <Link to={`/download/${encodeURIComponent(o.uuid)}`} data-testid="visitor-order-link">
            {t('adminOrders.detail.visitorPage')}
          </Link>
        </p>
      </div>

      <Actions order={o} />

      <div className="card stack">
        <h2>{t('adminOrders.trail.title')}</h2>
        {o.trail.length === 0 ? (
          <p className="muted">{t('adminOrders.trail.empty')}</p>
        ) : (
          <DataTable
            className="admin-order-trail"
            testId="payment-trail"
            columns={[
              t('adminOrders.trail.at'),
              t('adminOrders.trail.gateway'),
              t('adminOrders.trail.kind'),
              t('adminOrders.trail.ref'),
              { label: t('adminOrders.trail.amount'), num: true },
              t('adminOrders.trail.status'),
            ]}
          >
            {o.trail.map((step, i) => (
              <tr key={`${step.at}-${i}`} data-testid="trail-row">
                <td className="admin-orders-nowrap">{when(step.at)}</td>
                <td>{step.gateway}</td>
                <td>{step.kind}</td>
                <td className="admin-order-ref">{step.external_ref ?? '—'}</td>
                <td className="num admin-orders-nowrap">
                  {step.amount === null || step.amount === undefined
                    ? '—'
                    : `${formatBaht(step.amount / SATANG_PER_BAHT)} ${common('baht')}`}
                </td>
                <td>{step.status}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </div>
    </div>
  );
}

function Actions({ order }: { order: AdminOrder }) {
  const t = useDictionary(ordersMessages);
  const common = useT();
  const errorText = useErrorText();
  const toast = useToast();
  const { confirm } = useDialog();
  const queryClient = useQueryClient();
  const [slipRef, setSlipRef] = useState('');
  const [slipError, setSlipError] = useState<string | null>(null);

  const canApprove = awaitsApproval(order);
  const canConfirm = order.payment_gateway === 'PROMPTPAY' && order.payment_status === 'INITIAL';
  const canResend = order.payment_status === 'PAID' && Boolean(order.email);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: orderKey(order.uuid) }),
      queryClient.invalidateQueries({ queryKey: adminKeys.orders }),
    ]);
  const announce = ({ outcome }: OperatorOutcome) => {
    if (outcome === 'already_paid') toast.warning(t('adminOrders.outcome.alreadyPaid'));
    else toast.success(t('adminOrders.outcome.paid'));
  };

  const approve = useMutation({
    mutationFn: () => approveOrder(order.uuid),
    onSuccess: announce,
    onError: (e) => toast.error(errorText(e)),
    onSettled: refresh,
  });
  const confirmSlip = useMutation({
    mutationFn: (ref: string) => confirmOrder(order.uuid, ref),
    onSuccess: (answer) => {
      setSlipRef('');
      announce(answer);
    },
    onError: (e) => {
      if (failureCode(e) === 'invalid_field') setSlipError(errorText(e));
      toast.error(errorText(e));
    },
    onSettled: refresh,
  });
  const resend = useMutation({
    mutationFn: () => resendEmail(order.uuid),
    onSuccess: () => toast.success(t('adminOrders.resend.done', { email: order.email ?? '' })),
    onError: (e) => toast.error(errorText(e)),
  });

  const askApproval = async () => {
    const ok = await confirm({
      title: t('adminOrders.approve.title'),
      text: t('adminOrders.approve.text', {
        count: order.image_count,
        amount: formatBaht(order.paid_amount),
        mobile: order.mobile,
        event: order.event_title,
      }),
      okLabel: t('adminOrders.approve'),
      cancelLabel: common('cancel'),
      tone: 'warning',
    });
    if (ok) approve.mutate();
  };

  const submitSlip = (e: SyntheticEvent) => {
    e.preventDefault();
    const ref = slipRef.trim();
    if (ref === '') {
      setSlipError(t('adminOrders.slip.required'));
      return;
    }
    setSlipError(null);
    confirmSlip.mutate(ref);
  };

  const busy = approve.isPending || confirmSlip.isPending || resend.isPending;

  return (
    <div className="card stack" data-testid="order-actions">
      <h2>{t('adminOrders.actions.title')}</h2>
      {!canApprove && !canConfirm && !canResend && <p className="muted">{t('adminOrders.actions.none')}</p>}
      {canApprove && (
        <div className="stack">
          <p className="muted">{t('adminOrders.approve.hint')}</p>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="approve-order"
            disabled={busy}
            onClick={() => void askApproval()}
          >
            {approve.isPending && <Spinner inline label={common('loading')} />}
            {t('adminOrders.approve')}
          </button>
        </div>
      )}
      {canConfirm && (
        <form className="admin-order-slip" onSubmit={submitSlip} noValidate>
          <InputField
            id="slip-ref"
            label={t('adminOrders.slip.label')}
            type="text"
            autoComplete="off"
            data-testid="slip-ref"
            value={slipRef}
            onChange={(e) => {
              setSlipRef(e.target.value);
              setSlipError(null);
            }}
            aria-invalid={slipError ? true : undefined}
            aria-describedby={slipError ? 'slip-ref-hint slip-ref-error' : 'slip-ref-hint'}
          >
            <small id="slip-ref-hint" className="muted">
              {t('adminOrders.slip.hint')}
            </small>
            {slipError && (
              <p className="field-error" id="slip-ref-error" data-testid="error-slip_ref">
                {slipError}
              </p>
            )}
          </InputField>
          <button type="submit" className="btn btn-primary" data-testid="confirm-slip" disabled={busy}>
            {confirmSlip.isPending && <Spinner inline label={common('loading')} />}
            {t('adminOrders.slip.confirm')}
          </button>
        </form>
      )}
      {canResend && (
        <div className="stack">
          <p className="muted">{t('adminOrders.resend.hint', { email: order.email ?? '' })}</p>
          <button
            type="button"
            className="btn btn-secondary"
            data-testid="resend-email"
            disabled={busy}
            onClick={() => resend.mutate()}
          >
            {resend.isPending && <Spinner inline label={common('loading')} />}
            {t('adminOrders.resend')}
          </button>
        </div>
      )}
    </div>
  );
}
