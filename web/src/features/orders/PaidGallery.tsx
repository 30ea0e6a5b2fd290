//! A paid order's photos: the original / with-logo toggle (when logo copies exist), each
//! photo with its view and download buttons, and the lightbox (its own chunk).

import { lazy, Suspense, useState } from 'react';
import { thumbnailProps } from '@/components/thumbnail';
import { withQuery, type PaidImage, type Variant } from './orderData';
import { useT } from './messages';

const Lightbox = lazy(() => import('@/components/Lightbox'));

type Box = { index: number; variant: Variant } | null;

const addressOf = (image: PaidImage, v: Variant) => (v === 'logo' && image.image_logo ? image.image_logo : image.image);

function VariantToggle({ variant, onChoose }: { variant: Variant; onChoose: (v: Variant) => void }) {
  const t = useT();
  const option = (v: Variant, testId: string, label: string) => (
    <button
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
      {option('original', 'variant-original', t('order.variant.original'))}
      {option('logo', 'variant-logo', t('order.variant.logo'))}
    </fieldset>
  );
}

export function PaidGallery({ images, hasLogo }: { images: PaidImage[]; hasLogo: boolean }) {
  const t = useT();
  const [chosen, setChosen] = useState<Variant>('original');
  const variant: Variant = chosen === 'logo' && hasLogo ? 'logo' : 'original';
  const [box, setBox] = useState<Box>(null);
  const slides = box ? images.map((i) => ({ src: addressOf(i, box.variant), alt: i.original_file_name })) : [];

  return (
    <>
      <section className="stack" aria-labelledby="paid-photos-title">
        <h2 id="paid-photos-title">{t('order.photos.title', { count: images.length })}</h2>
        {hasLogo && <VariantToggle variant={variant} onChoose={setChosen} />}
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
