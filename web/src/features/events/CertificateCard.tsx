//! The finisher certificate of the one result a runner found: a preview of the picture
//! (1080 × 1350, for social media), downloads of the picture and of the A4 PDF, and the
//! runner's photos to choose the one it shows (the server's choice, their largest clear
//! face above their bib, is marked first). Shown only for a free certificate; the server
//! draws, caches and refuses (`certificate_not_free`) by its own rules.

import { useState } from 'react';
import type { PhotoBody } from '@/api/types';
import type { CertificateOffer } from './api';
import { useT } from './messages';

type Props = {
  offer: CertificateOffer;
  /** The runner's photos (their bib's), to pick the one shown. */
  photos: PhotoBody[];
};

/** `url` showing `photo` instead of the server's choice. */
function withPhoto(url: string, photo: number | null): string {
  return photo === null ? url : `${url}?photo=${photo}`;
}

export function CertificateCard({ offer, photos }: Props) {
  const t = useT();
  const [photo, setPhoto] = useState<number | null>(null);
  if (!offer.image_url || !offer.print_url) return null;
  const chosen = photo ?? offer.photo_id ?? null;
  const image = withPhoto(offer.image_url, photo);
  return (
    <section className="certificate stack" data-testid="certificate">
      <h3>{t('event.certificate.title')}</h3>
      <img
        className="certificate-preview"
        src={image}
        alt={t('event.certificate.preview')}
        width={270}
        height={338}
        loading="lazy"
        data-testid="certificate-preview"
      />
      <div className="certificate-actions">
        <a className="btn btn-primary" href={image} download data-testid="certificate-image">
          {t('event.certificate.image')}
        </a>
        <a className="btn btn-secondary" href={withPhoto(offer.print_url, photo)} download data-testid="certificate-print">
          {t('event.certificate.print')}
        </a>
      </div>
      {photos.length > 1 && (
        <fieldset className="certificate-photos">
          <legend>{t('event.certificate.choose')}</legend>
          <ul>
            {photos.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className="certificate-photo"
                  aria-pressed={chosen === p.id}
                  onClick={() => setPhoto(p.id)}
                  data-testid="certificate-photo"
                >
                  <img src={p.thumbnail_url} alt={t('event.certificate.photo', { id: p.id })} width={96} height={64} loading="lazy" />
                </button>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
    </section>
  );
}
