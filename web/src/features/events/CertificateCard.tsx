//! The finisher certificate of the one result a runner found. A free one: a preview of the
//! picture (1080 × 1350, for social media), downloads of the picture and of the A4 PDF, and
//! the runner's photos to choose the one it shows (the server's choice, their largest clear
//! face above their bib, is marked first); the server draws, caches and refuses
//! (`certificate_not_free`) by its own rules. A priced one: its price (the server's) and a
//! button putting it in the standard cart (one certificate a cart: another runner's is
//! replaced), then a link to the cart; it is delivered on the paid order's page.

import { useState } from 'react';
import { Link } from 'react-router';
import type { PhotoBody } from '@/api/types';
import { CertificateFiles } from '@/components/CertificateFiles';
import { useToast } from '@/components/Toast';
import { isCertificateOf, setCartCertificate, useCartCertificate } from '@/lib/cart';
import { formatBaht } from '@/lib/money';
import type { CertificateOffer } from './api';
import { useT } from './messages';

type Props = {
  offer: CertificateOffer;
  /** The runner's photos (their bib's), to pick the one shown. */
  photos: PhotoBody[];
  /** The event, and the runner's bib and name (their result row's): what the cart buys. */
  eventKey: string;
  bib: string;
  name: string;
};

/** `url` showing `photo` instead of the server's choice. */
function withPhoto(url: string, photo: number | null): string {
  return photo === null ? url : `${url}?photo=${photo}`;
}

export function CertificateCard({ offer, photos, eventKey, bib, name }: Props) {
  if (offer.image_url && offer.print_url) {
    return <FreeCertificate offer={offer} imageUrl={offer.image_url} printUrl={offer.print_url} photos={photos} />;
  }
  if (offer.price > 0) return <PricedCertificate price={offer.price} eventKey={eventKey} bib={bib} name={name} />;
  return null;
}

type PricedProps = { price: number; eventKey: string; bib: string; name: string };

function PricedCertificate({ price, eventKey, bib, name }: PricedProps) {
  const t = useT();
  const toast = useToast();
  const inCart = isCertificateOf(useCartCertificate(), eventKey, bib);
  const add = () => {
    setCartCertificate({ event_key: eventKey, bib, name });
    toast.success(t('event.certificate.added'));
  };
  return (
    <section className="certificate stack" data-testid="certificate">
      <h3>{t('event.certificate.title')}</h3>
      <p className="muted">{t('event.certificate.sold')}</p>
      <p>
        {t('event.certificate.priceLabel')}:{' '}
        <strong data-testid="certificate-price">
          {formatBaht(price)} {t('baht')}
        </strong>
      </p>
      <div className="certificate-actions">
        {inCart ? (
          <Link className="btn btn-secondary" to="/cart" data-testid="certificate-in-cart">
            {t('event.certificate.inCart')}
          </Link>
        ) : (
          <button type="button" className="btn btn-primary" onClick={add} data-testid="certificate-add">
            {t('event.certificate.add')}
          </button>
        )}
      </div>
    </section>
  );
}

type FreeProps = { offer: CertificateOffer; imageUrl: string; printUrl: string; photos: PhotoBody[] };

function FreeCertificate({ offer, imageUrl, printUrl, photos }: FreeProps) {
  const t = useT();
  const [photo, setPhoto] = useState<number | null>(null);
  const chosen = photo ?? offer.photo_id ?? null;
  const image = withPhoto(imageUrl, photo);
  return (
    <section className="certificate stack" data-testid="certificate">
      <h3>{t('event.certificate.title')}</h3>
      <CertificateFiles
        imageUrl={image}
        printUrl={withPhoto(printUrl, photo)}
        labels={{
          preview: t('event.certificate.preview'),
          image: t('event.certificate.image'),
          print: t('event.certificate.print'),
        }}
        testId="certificate"
      />
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
