//! Full-screen photo viewer: zoom by buttons, pinch, wheel and double tap; loops; no rotate
//! or move controls. The library's styles load with it, in its own chunk. Given an event's
//! sponsor frame, each slide shows it over the photo, stretched to the photo's size as the
//! server draws it (such slides are drawn by the page, and are not zoomed).

import 'yet-another-react-lightbox/styles.css';
import { useState } from 'react';
import YarLightbox, { type SlideImage } from 'yet-another-react-lightbox';
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
  /** The event's sponsor frame, drawn over every slide. */
  frameUrl?: string;
};

type Rect = { width: number; height: number };

/** A photo fitted into the slide's area (never enlarged), with the frame stretched over it. */
function FramedSlide({ slide, rect, frameUrl }: { slide: SlideImage; rect: Rect; frameUrl: string }) {
  const [size, setSize] = useState<Rect | null>(null);
  const scale = size ? Math.min(rect.width / size.width, rect.height / size.height, 1) : 1;
  return (
    <span
      className="framed framed-slide"
      style={size ? { width: size.width * scale, height: size.height * scale } : { visibility: 'hidden' }}
    >
      <img
        src={slide.src}
        alt={slide.alt ?? ''}
        style={size ? { width: '100%', height: '100%' } : { maxWidth: rect.width, maxHeight: rect.height }}
        onLoad={(e) => setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
      />
      <img className="photo-frame" src={frameUrl} alt="" aria-hidden="true" data-testid="slide-frame" />
    </span>
  );
}

export default function Lightbox({ slides, index, open, onClose, toolbar = true, frameUrl }: Props) {
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
      render={
        frameUrl
          ? { slide: ({ slide, rect }) => <FramedSlide slide={slide} rect={rect} frameUrl={frameUrl} /> }
          : undefined
      }
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
