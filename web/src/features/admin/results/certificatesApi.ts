//! Finisher certificates' console calls and types (from the generated contract): the
//! event's settings and templates, offering at a price, saving a template (SVG text,
//! checked whole by the server) or going back to the shop's, and the sample's address.

import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

export type CertificatesBody = components['schemas']['CertificatesBody'];

/** The two files a certificate comes as. */
export const CERTIFICATE_FORMATS = ['image', 'print'] as const;
export type CertificateFormat = (typeof CERTIFICATE_FORMATS)[number];

/** Under `admin`, like every console query, so signing out drops it with the rest. */
export const certificatesKey = (eventKey: string) => ['admin', 'certificates', eventKey] as const;

export function fetchCertificates(eventKey: string): Promise<CertificatesBody> {
  return unwrap(api.GET('/api/admin/events/{event_key}/certificates', { params: { path: { event_key: eventKey } } }));
}

export function saveCertificates(eventKey: string, offered: boolean, price: number): Promise<CertificatesBody> {
  return unwrap(
    api.PUT('/api/admin/events/{event_key}/certificates', {
      params: { path: { event_key: eventKey } },
      body: { offered, price },
    }),
  );
}

export function saveTemplate(eventKey: string, format: CertificateFormat, svg: string): Promise<CertificatesBody> {
  return unwrap(
    api.PUT('/api/admin/events/{event_key}/certificates/{format}', {
      params: { path: { event_key: eventKey, format } },
      body: svg,
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'image/svg+xml' },
    }),
  );
}

export function resetTemplate(eventKey: string, format: CertificateFormat): Promise<CertificatesBody> {
  return unwrap(
    api.DELETE('/api/admin/events/{event_key}/certificates/{format}', {
      params: { path: { event_key: eventKey, format } },
    }),
  );
}

/** A sample of the template in force, opened in a tab (the console's cookie signs it). */
export function sampleUrl(eventKey: string, format: CertificateFormat): string {
  return `/api/admin/events/${encodeURIComponent(eventKey)}/certificates/${format}/sample`;
}
