//! The delivery card of a paid (or free) order: the progress stepper, how to get the photos,
//! and a download-all ZIP per file the order gives (originals; logo copies on a paid order;
//! framed copies when it carries the sponsor's frame) with their progress.
//! An in-app browser cannot save a ZIP: the visitor is told to open the page elsewhere.

import type { InquiryResponse } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { copyText, isInAppBrowser } from '@/lib/inAppBrowser';
import { Stepper } from './OrderStepper';
import type { Variant } from './orderData';
import { isBusy, useZipDownloads, ZipStatus } from './ZipDownload';
import { useT } from './messages';

type Props = {
  order: InquiryResponse;
  uuid: string;
  count: number;
  /** The files the page offers, and those of them already made. */
  variants: Variant[];
  ready: Variant[];
};

const BUTTONS = {
  original: { label: 'order.download.all', confirm: 'order.download.confirmText', testId: 'download-all', tone: 'btn-primary' },
  logo: { label: 'order.download.allLogo', confirm: 'order.download.confirmLogoText', testId: 'download-all-logo', tone: 'btn-accent' },
  frame: { label: 'order.download.allFrame', confirm: 'order.download.confirmFrameText', testId: 'download-all-frame', tone: 'btn-accent' },
} as const;

export function PaidDownloads({ order, uuid, count, variants, ready }: Props) {
  const t = useT();
  const { alert, confirm } = useDialog();
  const zips = useZipDownloads(uuid);

  const downloadAll = async (v: Variant) => {
    if (isInAppBrowser()) {
      const url = window.location.href;
      const copied = await copyText(url);
      await alert({
        title: t('inApp.title'),
        text: copied ? t('inApp.copied') : t('inApp.copyManually', { url }),
        tone: 'warning',
      });
      return;
    }
    const ok = await confirm({
      title: t('order.download.confirmTitle'),
      text: t(BUTTONS[v].confirm, { count }),
      okLabel: t('order.download.ok'),
    });
    if (!ok) return;
    void zips.start(v);
  };

  return (
    <section className="card stack">
      <Stepper order={order} />
      <div>
        <h2>{t('order.howTo.title')}</h2>
        <ul className="order-howto">
          <li>{t('order.howTo.view')}</li>
          <li>{t('order.howTo.one')}</li>
          <li>{t('order.howTo.all')}</li>
        </ul>
        <p className="muted small">{t('order.howTo.retention')}</p>
      </div>
      <div className="row download-all">
        {variants.map((v) => (
          <button
            key={v}
            type="button"
            className={`btn ${BUTTONS[v].tone}`}
            disabled={!ready.includes(v) || isBusy(zips.states[v])}
            aria-busy={isBusy(zips.states[v])}
            onClick={() => void downloadAll(v)}
            data-testid={BUTTONS[v].testId}
          >
            {t(BUTTONS[v].label)}
          </button>
        ))}
      </div>
      {variants.some((v) => !ready.includes(v)) && (
        <p className="muted small" data-testid="download-preparing">
          {t('order.download.preparing')}
        </p>
      )}
      {variants.map((v) => (
        <ZipStatus key={v} variant={v} state={zips.states[v]} onRetry={() => void zips.start(v)} />
      ))}
    </section>
  );
}
