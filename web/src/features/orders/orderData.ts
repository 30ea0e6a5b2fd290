//! What the order page derives from an inquiry answer: the photo lists it carries as JSON
//! text (read defensively: a malformed list shows as empty, never breaks the page), the
//! finisher certificate it buys, when to keep polling, and the addresses the page hands out.

import { isPaymentStatus, isYes, type InquiryResponse } from '@/api/types';
import type { OrderMessageKey } from './messages';
import { mediaBase } from '@/lib/config';

export { ORDER_POLL_MS } from '@/lib/constants';

/** The files an order may give of each photo: the original, the copy with the logo, the
 * copy with the event's sponsor frame. */
export const VARIANTS = ['original', 'logo', 'frame'] as const;
export type Variant = (typeof VARIANTS)[number];

/** A photo of an unpaid order (shown as a sample). */
export type OrderImage = { thumbnail_file_name: string; original_file_name: string };

/** A photo of a paid order, with its signed download addresses. */
export type PaidImage = {
  id: string;
  image: string;
  image_logo: string;
  image_frame: string;
  image_thumbnail: string;
  original_file_name: string;
  photographer_id: string;
};

function parseArray(text: string | null | undefined): Record<string, unknown>[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
  } catch {
    return [];
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function parseOrderImages(text: string | null | undefined): OrderImage[] {
  return parseArray(text)
    .map((o) => ({ thumbnail_file_name: str(o.thumbnail_file_name), original_file_name: str(o.original_file_name) }))
    .filter((o) => o.thumbnail_file_name !== '');
}

export function parsePaidImages(text: string | null | undefined): PaidImage[] {
  return parseArray(text)
    .map((o) => ({
      id: str(o.id),
      image: str(o.image),
      image_logo: str(o.image_logo),
      image_frame: str(o.image_frame),
      image_thumbnail: str(o.image_thumbnail),
      original_file_name: str(o.original_file_name),
      photographer_id: str(o.photographer_id),
    }))
    .filter((o) => o.image !== '' || o.image_frame !== '');
}

/** A photo's signed address of `variant`; empty when the order does not give it (yet). */
export const addressOf = (image: PaidImage, variant: Variant) =>
  variant === 'logo' ? image.image_logo : variant === 'frame' ? image.image_frame : image.image;

/** An unpaid order's sample: the media base the server configured + event key + file name,
 * so a CDN in front of the media is used here as everywhere else. */
export const thumbnailUrl = (eventKey: string, fileName: string) =>
  `${mediaBase()}/${encodeURIComponent(eventKey)}/thumbnail/${encodeURIComponent(fileName)}`;

export const isFreeOrder = (order: InquiryResponse) => order.payment_channel === 'FREE';

/** The finisher certificate an order buys: the runner's bib, its price (in the order's
 * amounts) and, once paid, the addresses of the picture and of the A4 PDF. */
export type OrderCertificate = NonNullable<InquiryResponse['certificate']>;

/** The certificate the order buys, if any (none from servers that do not sell them). */
export const certificateOf = (order: InquiryResponse): OrderCertificate | null => order.certificate ?? null;

/** Whether the order buys photos: every order but one of a certificate alone
 * (`image_length` 0), which has none to show or zip. */
export const hasPhotos = (order: InquiryResponse) => !(order.image_length === 0 && certificateOf(order) !== null);

const isVariant = (v: string): v is Variant => (VARIANTS as readonly string[]).includes(v);

/** The files the page offers of the order's photos: those the server says it gives (the
 * original and the logo copy from servers that do not say), without the logo copy on a
 * FREE order. */
export function shownVariants(order: InquiryResponse): Variant[] {
  const given = (order.variants ?? ['original', 'logo']).filter(isVariant);
  return isFreeOrder(order) ? given.filter((v) => v !== 'logo') : given;
}

/** Whether the server has made the order's files of `variant`. */
export function variantReady(order: InquiryResponse, variant: Variant): boolean {
  const flag = {
    original: order.is_original_image_created,
    logo: order.is_logo_image_created,
    frame: order.is_frame_image_created,
  }[variant];
  return isYes(flag);
}

/** Whether the server still has something to change: payment awaited, photos being made, or
 * the addresses of a paid order's certificate not given yet. */
export function shouldPoll(order: InquiryResponse | undefined): boolean {
  if (!order) return false;
  if (order.payment_status === 'INITIAL') return true;
  if (order.payment_status !== 'PAID') return false;
  const certificate = certificateOf(order);
  if (certificate && !(certificate.image_url && certificate.print_url)) return true;
  if (!hasPhotos(order) || isYes(order.storage_expired)) return false;
  if (!isYes(order.is_original_image_created)) return true;
  return shownVariants(order).some((v) => !variantReady(order, v));
}

/** Adds a query parameter to an address that may already carry a query string (or a fragment). */
export function withQuery(url: string, key: string, value: string): string {
  const hashAt = url.indexOf('#');
  const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  const query = base.includes('?') ? base.slice(base.indexOf('?') + 1) : '';
  if (query.split('&').some((p) => p.split('=')[0] === key)) return url;
  const sep = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${sep}${encodeURIComponent(key)}=${encodeURIComponent(value)}${hash}`;
}

/** Card amounts travel in satang: the baht amount with the decimal point removed. */
export const toSatang = (baht: number) => Math.round(baht * 100);

export const zipUrl = (uuid: string, variant: Variant) =>
  `/api/orders/${encodeURIComponent(uuid)}/download.zip?variant=${variant}`;

/** The translated name of an order status, or the raw value when the server adds a new one. */
export const statusKey = (status: string): OrderMessageKey | null =>
  isPaymentStatus(status) ? `order.status.${status}` : null;

/** A card token for the sandbox gateway, which takes any `tokn_sandbox_…` in place of a card form. */
export function sandboxToken(): string {
  const bytes = new Uint8Array(12);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else bytes.forEach((_, i) => (bytes[i] = Math.floor(Math.random() * 256)));
  return `tokn_sandbox_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
