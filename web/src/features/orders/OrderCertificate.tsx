//! The finisher certificate an order buys: its line in an unpaid order's amount (bib and
//! price, as the server gives them), and once the order is paid its delivery: a preview of
//! the picture (1080 × 1350, for social media) and downloads of the picture and of the A4
//! PDF, at the addresses the inquiry gives.

import type { InquiryResponse } from '@/api/types';
import { CertificateFiles } from '@/components/CertificateFiles';
import { Spinner } from '@/components/Spinner';
import { formatBaht } from '@/lib/money';
import { certificateOf, type OrderCertificate } from './orderData';
import { useT } from './messages';

/** The certificate's line in an unpaid order's summary; nothing for an order without one. */
export function CertificateLine({ order }: { order: InquiryResponse }) {
  const t = useT();
  const certificate = certificateOf(order);
  if (!certificate) return null;
  return (
    <p data-testid="order-certificate-line">
      {t('order.certificate.line', { bib: certificate.bib, price: formatBaht(certificate.price) })}
    </p>
  );
}

/** A paid order's certificate to download; while its addresses are not given yet, a wait. */
export function CertificateBlock({ certificate }: { certificate: OrderCertificate }) {
  const t = useT();
  const image = certificate.image_url;
  const print = certificate.print_url;
  return (
    <section className="card stack order-certificate" aria-labelledby="order-certificate-title" data-testid="order-certificate">
      <h2 id="order-certificate-title">{t('order.certificate.title')}</h2>
      <p className="muted">{t('order.certificate.bib', { bib: certificate.bib })}</p>
      {image && print ? (
        <CertificateFiles
          imageUrl={image}
          printUrl={print}
          labels={{
            preview: t('order.certificate.preview'),
            image: t('order.certificate.image'),
            print: t('order.certificate.print'),
          }}
          testId="order-certificate"
        />
      ) : (
        <Spinner label={t('order.certificate.preparing')} />
      )}
    </section>
  );
}
