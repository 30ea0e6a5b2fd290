//! A paid (or free) order's delivery: the downloads card (progress stepper, how-to,
//! download-all ZIPs with their progress), the finisher certificate it buys if any, and the
//! photo gallery (a toggle between the files the order gives: original, with logo, with the
//! sponsor's frame; lightbox).

import type { ReactNode } from 'react';
import type { InquiryResponse } from '@/api/types';
import { shownVariants, variantReady, type PaidImage } from './orderData';
import { PaidDownloads } from './PaidDownloads';
import { PaidGallery } from './PaidGallery';

type Props = {
  order: InquiryResponse;
  uuid: string;
  images: PaidImage[];
  /** The certificate's delivery, shown between the downloads and the photos. */
  certificate?: ReactNode;
};

export function PaidBlock({ order, uuid, images, certificate }: Props) {
  const variants = shownVariants(order);
  const ready = variants.filter((v) => variantReady(order, v));
  return (
    <>
      <PaidDownloads order={order} uuid={uuid} count={images.length} variants={variants} ready={ready} />
      {certificate}
      <PaidGallery images={images} variants={ready} />
    </>
  );
}
