//! QR page (/eventqr/{q}, /{q}/qr): the QR of the event
//! address at 300 px for the screen, and two 1000 px print files to download, one with
//! the logo and the code text, one with the code text only. Problems (no code, logo or
//! canvas trouble) go to the console only: the page always shows what it can.

// The code text is an event key (ASCII): the Latin subset is the only one it can use.
import '@fontsource/roboto/latin-400.css';
import './qr.css';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useParams } from 'react-router';
import { QrCode } from '@/components/QrCode';
import { QR_CANVAS_PX, QR_PAGE_PX } from '@/lib/constants';
import {
  downloadCanvas,
  drawBase,
  drawCodeText,
  drawLogo,
  fontReady,
  LOGO_TEXT_FROM_BOTTOM,
  LOGO_URL,
  loadImage,
  PLAIN_TEXT_FROM_BOTTOM,
  renderQr,
  safeFileName,
} from './draw';
import { useT } from './messages';

/** Which address each print file has finished drawing for (so a new code re-arms them). */
type Drawn = { text?: string; logo?: string; failed?: string };

function context(canvas: HTMLCanvasElement | null): CanvasRenderingContext2D | null {
  try {
    return canvas?.getContext('2d') ?? null;
  } catch {
    return null;
  }
}

function usePrintFiles(address: string, code: string) {
  const logoRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState<Drawn>({});

  useEffect(() => {
    let live = true;
    const done = (which: keyof Drawn) => {
      if (live) setDrawn((d) => ({ ...d, [which]: address }));
    };
    // Started at once, drawn once the QR is down (it would otherwise be painted over).
    const logo = loadImage(LOGO_URL);
    logo.catch(() => undefined);

    void (async () => {
      const withLogo = context(logoRef.current);
      const plain = context(textRef.current);
      try {
        if (!withLogo || !plain) {
          console.error('QR page: canvas not found or not supported');
          done('failed');
          return;
        }
        let qr: HTMLCanvasElement;
        try {
          qr = await renderQr(address);
        } catch (e) {
          console.error('QR page: the QR code could not be drawn', e);
          done('failed');
          return;
        }
        if (!live) return;
        drawBase(withLogo, qr);
        drawBase(plain, qr);

        await fontReady();
        if (!live) return;
        drawCodeText(withLogo, code, LOGO_TEXT_FROM_BOTTOM);
        drawCodeText(plain, code, PLAIN_TEXT_FROM_BOTTOM);
        done('text');

        try {
          const image = await logo;
          if (!live) return;
          drawLogo(withLogo, image);
        } catch (e) {
          console.error('QR page: the logo failed to load', e);
        }
      } finally {
        // Failures leave the buttons usable: a press then explains itself in the console.
        done('text');
        done('logo');
      }
    })();
    return () => {
      live = false;
    };
  }, [address, code]);

  const failed = drawn.failed === address;
  // A blank square is no QR code: nothing is saved when drawing failed.
  const download = (canvas: HTMLCanvasElement | null, fileName: string) => {
    if (failed) console.error('QR page: nothing to download, the QR code could not be drawn');
    else downloadCanvas(canvas, fileName);
  };
  return {
    logoRef,
    textRef,
    textReady: drawn.text === address,
    logoReady: drawn.logo === address,
    download,
  };
}

export function QrPage() {
  const t = useT();
  const { q } = useParams();
  const code = q ?? '';
  useEffect(() => {
    if (!code) console.warn('QR page: no event code (q) in the address; showing the site address');
  }, [code]);

  const origin = window.location.origin;
  const address = `${origin}/${code ? encodeURIComponent(code) : ''}`;
  const example = `${origin}/${code ? encodeURIComponent(code) : '…'}/qr`;
  const file = safeFileName(code);
  const { logoRef, textRef, textReady, logoReady, download } = usePrintFiles(address, code);

  return (
    <article className="page narrow qr-page">
      <h1>{t('qr.title')}</h1>
      <p>{t('qr.intro')}</p>

      <div className="card qr-main">
        <QrCode text={address} size={QR_PAGE_PX} level="H" label={t('qr.qrLabel', { url: address })} testId="qr-code" />
        <p className="qr-address">
          <span className="muted">{t('qr.address')}: </span>
          <a href={address} data-testid="qr-address">
            {address}
          </a>
        </p>
      </div>

      <section className="card">
        <h2>{t('qr.hintTitle')}</h2>
        <p>
          {t('qr.hint')} <code className="qr-example">{example}</code>
        </p>
      </section>

      <section aria-labelledby="qr-print">
        <h2 id="qr-print">{t('qr.printTitle')}</h2>
        <div className="qr-files">
          <PrintFile
            canvasRef={logoRef}
            caption={t('qr.withLogo')}
            testId="qr-canvas-logo"
            button={{ label: t('qr.downloadLogo'), className: 'btn-primary', testId: 'download-logo-qr' }}
            ready={logoReady}
            onDownload={() => download(logoRef.current, `${file}-logo-qr.png`)}
          />
          <PrintFile
            canvasRef={textRef}
            caption={t('qr.textOnly')}
            testId="qr-canvas-text"
            button={{ label: t('qr.download'), className: 'btn-secondary', testId: 'download-qr' }}
            ready={textReady}
            onDownload={() => download(textRef.current, `${file}-qr.png`)}
          />
        </div>
      </section>
    </article>
  );
}

type PrintFileProps = {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  caption: string;
  testId: string;
  button: { label: string; className: string; testId: string };
  /** The canvas holds the current address's QR code. */
  ready: boolean;
  onDownload: () => void;
};

/** One of the files to print: its canvas, named by its caption, and its download button. */
function PrintFile({ canvasRef, caption, testId, button, ready, onDownload }: PrintFileProps) {
  return (
    <figure className="card qr-file">
      <canvas
        ref={canvasRef}
        width={QR_CANVAS_PX}
        height={QR_CANVAS_PX}
        className="qr-canvas"
        role="img"
        aria-label={caption}
        data-testid={testId}
      />
      <figcaption>{caption}</figcaption>
      <button
        type="button"
        className={`btn ${button.className} btn-block`}
        data-testid={button.testId}
        disabled={!ready}
        aria-busy={!ready}
        onClick={onDownload}
      >
        {button.label}
      </button>
    </figure>
  );
}
