//! A paid order's photos: a toggle between the files made of them (original, with logo,
//! with the sponsor's frame) when there are several, each photo with its view and
//! download buttons, and the lightbox (its own chunk).

import { lazy, Suspense, useState } from 'react';
import { thumbnailProps } from '@/components/thumbnail';
import { addressOf, withQuery, type PaidImage, type Variant } from './orderData';
import { useT } from './messages';

const Lightbox = lazy(() => import('@/components/Lightbox'));

type Box = { index: number; variant: Variant } | null;

const LABELS = { original: 'order.variant.original', logo: 'order.variant.logo', frame: 'order.variant.frame' } as const;

type ToggleProps = { variants: Variant[]; variant: Variant; onChoose: (v: Variant) => void };

function VariantToggle({ variants, variant, onChoose }: ToggleProps) {
  const t = useT();
  const option = (v: Variant, testId: string, label: string) => (
    <button
      key={v}
      type="button"
      role="radio"
      aria-checked={variant === v}
      className={`btn btn-small ${variant === v ? 'btn-primary' : 'btn-secondary'}`}
      onClick={() => onChoose(v)}
      data-testid={testId}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="variant-toggle" role="radiogroup">
      <legend>{t('order.variant.label')}</legend>
      {variants.map((v) => option(v, `variant-${v}`, t(LABELS[v])))}
    </fieldset>
  );
}

export function PaidGallery({ images, variants }: { images: PaidImage[]; variants: Variant[] }) {
  const t = useT();
  const [chosen, setChosen] = useState<Variant>('original');
  // The files made that the photos have addresses of; the first until the visitor chooses.
  const shown = variants.filter((v) => images.some((i) => addressOf(i, v) !== ''));
  const variant: Variant = shown.includes(chosen) ? chosen : (shown[0] ?? 'original');
  const hasLogo = shown.includes('logo');
  const [box, setBox] = useState<Box>(null);
  const slides = box ? images.map((i) => ({ src: addressOf(i, box.variant), alt: i.original_file_name })) : [];

  return (
    <>
      <section className="stack" aria-labelledby="paid-photos-title">
        <h2 id="paid-photos-title">{t('order.photos.title', { count: images.length })}</h2>
        {shown.length > 1 && <VariantToggle variants={shown} variant={variant} onChoose={setChosen} />}
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
