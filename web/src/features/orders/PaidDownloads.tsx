//! The delivery card of a paid (or free) order: the progress stepper, how to get the photos,
//! and the download-all ZIPs (originals; logo copies on a paid order) with their progress.
//! An in-app browser cannot save a ZIP: the visitor is told to open the page elsewhere.

import type { InquiryResponse } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { copyText, isInAppBrowser } from '@/lib/inAppBrowser';
import { Stepper } from './OrderStepper';
import type { Variant } from './orderData';
import { isBusy, useZipDownloads, ZipStatus } from './ZipDownload';
import { useT } from './messages';

type Props = { order: InquiryResponse; uuid: string; count: number; free: boolean; originalReady: boolean; logoReady: boolean };

export function PaidDownloads({ order, uuid, count, free, originalReady, logoReady }: Props) {
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
      text: t(v === 'logo' ? 'order.download.confirmLogoText' : 'order.download.confirmText', { count }),
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
        <button
          type="button"
          className="btn btn-primary"
          disabled={!originalReady || isBusy(zips.states.original)}
          aria-busy={isBusy(zips.states.original)}
          onClick={() => void downloadAll('original')}
          data-testid="download-all"
        >
          {t('order.download.all')}
        </button>
        {!free && (
          <button
            type="button"
            className="btn btn-accent"
            disabled={!logoReady || isBusy(zips.states.logo)}
            aria-busy={isBusy(zips.states.logo)}
            onClick={() => void downloadAll('logo')}
            data-testid="download-all-logo"
          >
            {t('order.download.allLogo')}
          </button>
        )}
      </div>
      {(!originalReady || (!free && !logoReady)) && (
        <p className="muted small" data-testid="download-preparing">
          {t('order.download.preparing')}
        </p>
      )}
      {(['original', 'logo'] as const).map((v) => (
        <ZipStatus key={v} variant={v} state={zips.states[v]} onRetry={() => void zips.start(v)} />
      ))}
    </section>
  );
}
