//! The QR page's print files: a 1000 px square, white, holding the
//! event's QR (error correction H, so the logo over its centre still scans) with either
//! the logo and the code text 50 px from the bottom, or the code text alone 40 px from the
//! bottom. The QR is kept above the text line so the two never overlap.

import QRCode from 'qrcode';
import { QR_CANVAS_PX } from '@/lib/constants';

export const LOGO_URL = '/logo.svg';
export const TEXT_FONT = '30px Roboto';
export const LOGO_TEXT_FROM_BOTTOM = 50;
export const PLAIN_TEXT_FROM_BOTTOM = 40;
/** The logo's width as a share of the canvas (15%). */
export const LOGO_SHARE = 0.15;
export const LOGO_RADIUS = 20;
const LOGO_PADDING = 14;

/** The QR square: 88% of the canvas, centred across, near the top, ending ~100 px above
 * the bottom so the 30 px text line below it stays clear. */
export const QR_BOX = {
  size: Math.round(QR_CANVAS_PX * 0.88),
  x: Math.round((QR_CANVAS_PX - QR_CANVAS_PX * 0.88) / 2),
  y: Math.round(QR_CANVAS_PX * 0.016),
} as const;

/** The QR drawn alone on an offscreen canvas at its final size (no scaling blur). */
export async function renderQr(text: string): Promise<HTMLCanvasElement> {
  const canvas = document.createElement('canvas');
  await QRCode.toCanvas(canvas, text, {
    width: QR_BOX.size,
    margin: 2,
    errorCorrectionLevel: 'H',
    color: { dark: '#000000', light: '#ffffff' },
  });
  return canvas;
}

/** White background and the QR. */
export function drawBase(ctx: CanvasRenderingContext2D, qr: CanvasImageSource) {
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, QR_CANVAS_PX, QR_CANVAS_PX);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(qr, QR_BOX.x, QR_BOX.y, QR_BOX.size, QR_BOX.size);
}

/** The code text, black, centred, its baseline `fromBottom` px above the bottom edge. */
export function drawCodeText(ctx: CanvasRenderingContext2D, text: string, fromBottom: number) {
  if (!text) return;
  ctx.fillStyle = '#000000';
  ctx.font = TEXT_FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  // A very long code shrinks to fit rather than running off the edges.
  ctx.fillText(text, QR_CANVAS_PX / 2, QR_CANVAS_PX - fromBottom, QR_CANVAS_PX - 2 * QR_BOX.x);
}

function roundedRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** The logo at 15% of the canvas width over the QR's centre, on a white rounded square.
 * The logo is drawn square: the shop's logo is, and SVGs without a size report none. */
export function drawLogo(ctx: CanvasRenderingContext2D, logo: CanvasImageSource) {
  const side = QR_CANVAS_PX * LOGO_SHARE;
  const cx = QR_BOX.x + QR_BOX.size / 2;
  const cy = QR_BOX.y + QR_BOX.size / 2;
  const box = side + 2 * LOGO_PADDING;
  ctx.fillStyle = '#ffffff';
  roundedRect(ctx, cx - box / 2, cy - box / 2, box, box, LOGO_RADIUS);
  ctx.fill();
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(logo, cx - side / 2, cy - side / 2, side, side);
}

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`could not load ${src}`));
    img.src = src;
  });
}

/** Waits for Roboto so the text is not drawn in a fallback font; never fails. */
export async function fontReady(): Promise<void> {
  try {
    // jsdom and very old browsers have no FontFaceSet.
    await document.fonts?.load(TEXT_FONT);
  } catch (e) {
    console.warn('QR page: Roboto did not load, drawing with a fallback font', e);
  }
}

/** A file name from the code: characters file systems refuse become `_`. */
export function safeFileName(code: string): string {
  return code.replace(/[\\/:*?"<>|\s]+/g, '_') || 'raceshot';
}

/** Saves the canvas as a PNG, if it exists and the browser can export it. */
export function downloadCanvas(canvas: HTMLCanvasElement | null, fileName: string) {
  if (!canvas) {
    console.error('QR page: canvas not found');
    return;
  }
  if (typeof canvas.toBlob !== 'function') {
    console.error('QR page: this browser cannot export a canvas');
    return;
  }
  try {
    canvas.toBlob((blob) => {
      if (!blob) {
        console.error('QR page: the canvas could not be exported');
        return;
      }
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
      // Revoking at once can cancel the download in some browsers.
      window.setTimeout(() => URL.revokeObjectURL(url), 1000);
    }, 'image/png');
  } catch (e) {
    console.error('QR page: the canvas could not be exported', e);
  }
}
