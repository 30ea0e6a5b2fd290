//! A paid (or free) order's delivery: progress stepper, how-to, download-all ZIPs with their
//! progress, the original / with-logo toggle, and the photo gallery with its lightbox.

import { lazy, Suspense, useState } from 'react';
import { isYes, type InquiryResponse } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';
import { thumbnailProps } from '@/components/thumbnail';
import type { OrderMessageKey } from './messages';
import { copyText, isInAppBrowser } from '@/lib/inAppBrowser';
import { isFreeOrder, withQuery, type PaidImage, type Variant } from './orderData';
import { isBusy, useZipDownloads, ZipStatus } from './ZipDownload';
import { useT } from './messages';

const Lightbox = lazy(() => import('@/components/Lightbox'));

type Step = { key: OrderMessageKey; done: boolean };

function steps(order: InquiryResponse): Step[] {
  const original = isYes(order.is_original_image_created);
  if (isFreeOrder(order)) {
    return [
      { key: 'order.step.created', done: true },
      { key: 'order.step.original', done: original },
      { key: 'order.step.freeCompleted', done: original },
    ];
  }
  const logo = isYes(order.is_logo_image_created);
  return [
    { key: 'order.step.paid', done: true },
    { key: 'order.step.original', done: original },
    { key: 'order.step.logo', done: logo },
    { key: 'order.step.completed', done: original && logo },
  ];
}

export function Stepper({ order }: { order: InquiryResponse }) {
  const t = useT();
  const list = steps(order);
  const current = list.findIndex((s) => !s.done);
  return (
    <ol className="order-stepper" aria-label={t('order.steps.label')} data-testid="order-stepper">
      {list.map((s, i) => (
        <li
          key={s.key}
          className={s.done ? 'done' : i === current ? 'current' : undefined}
          aria-current={i === current ? 'step' : undefined}
          data-done={s.done ? 'Y' : 'N'}
        >
          <span className="step-mark" aria-hidden="true">
            {s.done ? '✓' : i + 1}
          </span>
          <span className="step-label">
            {t(s.key)}
            {i === current && <Spinner inline label={t('order.step.inProgress')} />}
          </span>
        </li>
      ))}
    </ol>
  );
}

type Box = { index: number; variant: Variant } | null;

export function PaidBlock({ order, uuid, images }: { order: InquiryResponse; uuid: string; images: PaidImage[] }) {
  const t = useT();
  const { alert, confirm } = useDialog();
  const free = isFreeOrder(order);
  const originalReady = isYes(order.is_original_image_created);
  const logoReady = isYes(order.is_logo_image_created);
  const hasLogo = logoReady && images.some((i) => i.image_logo !== '');
  const [chosen, setChosen] = useState<Variant>('original');
  const variant: Variant = chosen === 'logo' && hasLogo ? 'logo' : 'original';
  const [box, setBox] = useState<Box>(null);
  const zips = useZipDownloads(uuid);

  const addressOf = (image: PaidImage, v: Variant) => (v === 'logo' && image.image_logo ? image.image_logo : image.image);

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
      text: t(v === 'logo' ? 'order.download.confirmLogoText' : 'order.download.confirmText', { count: images.length }),
      okLabel: t('order.download.ok'),
    });
    if (!ok) return;
    void zips.start(v);
  };

  const slides = box ? images.map((i) => ({ src: addressOf(i, box.variant), alt: i.original_file_name })) : [];

  return (
    <>
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

      <section className="stack" aria-labelledby="paid-photos-title">
        <h2 id="paid-photos-title">{t('order.photos.title', { count: images.length })}</h2>
        {hasLogo && (
          <fieldset className="variant-toggle" role="radiogroup">
            <legend>{t('order.variant.label')}</legend>
            <button
              type="button"
              role="radio"
              aria-checked={variant === 'original'}
              className={`btn btn-small ${variant === 'original' ? 'btn-primary' : 'btn-secondary'}`}
              onClick={() => setChosen('original')}
              data-testid="variant-original"
            >
              {t('order.variant.original')}
            </button>
            <button
              type="button"
              role="radio"
              aria-checked={variant === 'logo'}
              className={`btn btn-small ${variant === 'logo' ? 'btn-primary' : 'btn-secondary'}`}
              onClick={() => setChosen('logo')}
              data-testid="variant-logo"
            >
              {t('order.variant.logo')}
            </button>
          </fieldset>
        )}
        <ul className="photo-grid paid-photos" data-testid="paid-photos">
          {images.map((image, index) => (
            <li key={image.id || image.image} className="photo-card" data-testid="paid-photo">
              <img
                src={image.image_thumbnail}
                alt={image.original_file_name}
                {...thumbnailProps(index)}
                onClick={() => setBox({ index, variant })}
              />
              <p className="photo-name">{image.original_file_name}</p>
              <div className="photo-actions">
                <button
                  type="button"
                  className="btn btn-small btn-secondary"
                  onClick={() => setBox({ index, variant })}
                  data-testid="view-photo"
                >
                  {t('order.photo.view')}
                </button>
                {hasLogo && image.image_logo !== '' && (
                  <button
                    type="button"
                    className="btn btn-small btn-secondary"
                    onClick={() => setBox({ index, variant: 'logo' })}
                    data-testid="view-photo-logo"
                  >
                    {t('order.photo.viewLogo')}
                  </button>
                )}
                <a
                  className="btn btn-small btn-primary"
                  href={withQuery(addressOf(image, variant), 'openExternalBrowser', '1')}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="download-photo"
                >
                  {t('order.photo.download')}
                </a>
              </div>
            </li>
          ))}
        </ul>
      </section>

      {box && (
        <Suspense fallback={null}>
          <Lightbox open slides={slides} index={box.index} onClose={() => setBox(null)} toolbar={false} />
        </Suspense>
      )}
    </>
  );
}
