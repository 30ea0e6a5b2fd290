//! A paid (or free) order's delivery: the downloads card (progress stepper, how-to,
//! download-all ZIPs with their progress) and the photo gallery (original / with-logo toggle,
//! lightbox).

import { isYes, type InquiryResponse } from '@/api/types';
import { isFreeOrder, type PaidImage } from './orderData';
import { PaidDownloads } from './PaidDownloads';
import { PaidGallery } from './PaidGallery';

export function PaidBlock({ order, uuid, images }: { order: InquiryResponse; uuid: string; images: PaidImage[] }) {
  const logoReady = isYes(order.is_logo_image_created);
  return (
    <>
      <PaidDownloads
        order={order}
        uuid={uuid}
        count={images.length}
        free={isFreeOrder(order)}
        originalReady={isYes(order.is_original_image_created)}
        logoReady={logoReady}
      />
      <PaidGallery images={images} hasLogo={logoReady && images.some((i) => i.image_logo !== '')} />
    </>
  );
}
