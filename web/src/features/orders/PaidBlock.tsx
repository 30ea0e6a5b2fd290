//! A paid (or free) order's delivery: the downloads card (progress stepper, how-to,
//! download-all ZIPs with their progress) and the photo gallery (a toggle between the files
//! the order gives: original, with logo, with the sponsor's frame; lightbox).

import type { InquiryResponse } from '@/api/types';
import { shownVariants, variantReady, type PaidImage } from './orderData';
import { PaidDownloads } from './PaidDownloads';
import { PaidGallery } from './PaidGallery';

export function PaidBlock({ order, uuid, images }: { order: InquiryResponse; uuid: string; images: PaidImage[] }) {
  const variants = shownVariants(order);
  const ready = variants.filter((v) => variantReady(order, v));
  return (
    <>
      <PaidDownloads order={order} uuid={uuid} count={images.length} variants={variants} ready={ready} />
      <PaidGallery images={images} variants={ready} />
    </>
  );
}
