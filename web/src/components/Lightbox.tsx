//! Full-screen photo viewer: zoom by buttons, pinch, wheel and double tap; loops; no rotate
//! or move controls. The library's styles load with it, in its own chunk.

import 'yet-another-react-lightbox/styles.css';
import YarLightbox from 'yet-another-react-lightbox';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import { useT } from '@/i18n';

export type LightboxSlide = { src: string; alt?: string };

type Props = {
  slides: LightboxSlide[];
  index: number;
  open: boolean;
  onClose: () => void;
  /** The order page shows no toolbar. */
  toolbar?: boolean;
};

export default function Lightbox({ slides, index, open, onClose, toolbar = true }: Props) {
  const t = useT();
  return (
    <YarLightbox
      open={open}
      close={onClose}
      index={index}
      slides={slides}
      plugins={[Zoom]}
      carousel={{ finite: false }}
      zoom={{ scrollToZoom: true, maxZoomPixelRatio: 3 }}
      controller={{ closeOnBackdropClick: true }}
      toolbar={toolbar ? undefined : { buttons: ['close'] }}
      labels={{
        Previous: t('lightbox.previous'),
        Next: t('lightbox.next'),
        Close: t('lightbox.close'),
        'Zoom in': t('lightbox.zoomIn'),
        'Zoom out': t('lightbox.zoomOut'),
      }}
    />
  );
}
