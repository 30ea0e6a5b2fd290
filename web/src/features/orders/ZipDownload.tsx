//! The state of each download-all ZIP (original, with logo, with frame) and what the runner sees of it:
//! preparing (the server builds the ZIP before the first byte), receiving (percent when the
//! length is known, else megabytes so far), handed to the browser, or failed with a
//! "Download Error" and a retry.

import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiFailure } from '@/api/client';
import { useErrorText } from '@/i18n/errors';
import { BYTES_PER_MB, DOWNLOAD_NOTICE_MS } from '@/lib/constants';
import { zipUrl, type Variant } from './orderData';
import { clickDownload, saveFile } from '@/lib/saveFile';
import { fetchZip, ZipCancelled, zipFileName } from './zipDownload';
import { useT } from './messages';

export type ZipState =
  | { phase: 'idle' }
  | { phase: 'preparing' }
  | { phase: 'receiving'; received: number; total: number | null }
  | { phase: 'saved' }
  | { phase: 'failed'; error: unknown };

const IDLE: ZipState = { phase: 'idle' };

export const isBusy = (s: ZipState) => s.phase === 'preparing' || s.phase === 'receiving';

/** Where each ZIP (originals, logo copies, framed copies) stands, with its progress: one ZIP per variant. */
export function useZipDownloads(uuid: string) {
  const [states, setStates] = useState<Record<Variant, ZipState>>({ original: IDLE, logo: IDLE, frame: IDLE });
  // The running download of each variant, so leaving the page (or a newer run) stops it.
  const runs = useRef<Record<Variant, number>>({ original: 0, logo: 0, frame: 0 });
  const mounted = useRef(true);
  const timers = useRef<number[]>([]);

  useEffect(() => {
    mounted.current = true;
    const pending = timers.current;
    return () => {
      mounted.current = false;
      pending.forEach((id) => window.clearTimeout(id));
    };
  }, []);

  const start = useCallback(
    async (variant: Variant) => {
      const run = ++runs.current[variant];
      const current = () => mounted.current && runs.current[variant] === run;
      const set = (state: ZipState) => {
        if (current()) setStates((s) => ({ ...s, [variant]: state }));
      };
      set({ phase: 'preparing' });
      try {
        const blob = await fetchZip(
          zipUrl(uuid, variant),
          (p) => set({ phase: 'receiving', ...p }),
          () => !current(),
        );
        if (!current()) return;
        if (blob === 'too-large') clickDownload(zipUrl(uuid, variant), zipFileName(uuid, variant));
        else saveFile(blob, zipFileName(uuid, variant));
        set({ phase: 'saved' });
        // The notice goes after a while, unless a newer run of this variant replaced it.
        timers.current.push(window.setTimeout(() => set(IDLE), DOWNLOAD_NOTICE_MS));
      } catch (error) {
        if (!(error instanceof ZipCancelled)) set({ phase: 'failed', error });
      }
    },
    [uuid],
  );

  return { states, start };
}

type StatusProps = { variant: Variant; state: ZipState; onRetry: () => void };

const ZIP_NAMES = {
  original: 'order.download.zipOriginal',
  logo: 'order.download.zipLogo',
  frame: 'order.download.zipFrame',
} as const;

/** One variant's progress, notice or error; nothing while idle. */
export function ZipStatus({ variant, state, onRetry }: StatusProps) {
  const t = useT();
  const errorText = useErrorText();
  const labelId = useId();
  const name = t(ZIP_NAMES[variant]);

  switch (state.phase) {
    case 'idle':
      return null;
    case 'preparing':
    case 'receiving': {
      const { received, total } = state.phase === 'receiving' ? state : { received: 0, total: null };
      const percent = total !== null ? Math.min(100, Math.floor((received * 100) / total)) : null;
      const text =
        state.phase === 'preparing'
          ? t('order.download.preparingZip', { name })
          : percent !== null
            ? t('order.download.percent', { name, percent })
            : t('order.download.received', { name, mb: (received / BYTES_PER_MB).toFixed(1) });
      return (
        <div className="zip-progress stack" role="status" data-testid="download-progress" data-variant={variant}>
          <span id={labelId}>{text}</span>
          {/* Without a value the bar is indeterminate: the size is not known yet. */}
          {percent !== null ? (
            <progress max={100} value={percent} aria-labelledby={labelId} />
          ) : (
            <progress aria-labelledby={labelId} />
          )}
        </div>
      );
    }
    case 'saved':
      return (
        <p className="alert alert-info" role="status" data-testid="download-started" data-variant={variant}>
          {t('order.download.started', { name })}
        </p>
      );
    case 'failed': {
      // The server's own reason helps (storage expired, connection lost); an internal error
      // says no more than the generic message.
      const detail =
        state.error instanceof ApiFailure && state.error.code !== 'internal' ? errorText(state.error) : null;
      return (
        <div className="alert alert-danger stack" role="alert" data-testid="download-error" data-variant={variant}>
          <strong>{t('order.download.errorTitle')}</strong>
          <p>{t('order.download.errorText')}</p>
          {detail !== null && <p className="small">{detail}</p>}
          <p>
            <button type="button" className="btn btn-secondary btn-small" onClick={onRetry} data-testid="download-retry">
              {t('retry')}
            </button>
          </p>
        </div>
      );
    }
  }
}
