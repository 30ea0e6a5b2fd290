//! A QR code drawn locally on a canvas from its text (PromptPay payloads, event addresses).

import QRCode from 'qrcode';
import { useEffect, useRef } from 'react';

type Props = {
  text: string;
  size: number;
  level?: 'L' | 'M' | 'Q' | 'H';
  label?: string;
  testId?: string;
};

export function QrCode({ text, size, level = 'Q', label, testId }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (ref.current && text) {
      void QRCode.toCanvas(ref.current, text, { width: size, margin: 2, errorCorrectionLevel: level });
    }
  }, [text, size, level]);
  return <canvas ref={ref} width={size} height={size} role="img" aria-label={label} data-testid={testId} />;
}
