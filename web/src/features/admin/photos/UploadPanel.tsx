//! Upload of an event's photos from the browser: a drop zone and a file picker feeding the
//! upload queue, one row per file with its progress or its reason for failing.

import { memo, useEffect, useId, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { useSessionCheck } from '../shell/operator';
import { useAdminPhotosT, type AdminPhotosT } from './i18n';
import { MAX_PHOTO_MB, PHOTO_TYPES, photoContentType, summarize, UploadQueue, resumableUploader, type Uploader, type UploadItem } from './uploadQueue';

type Props = {
  eventKey: string;
  /** A file reached the server: the ingestion counts changed. */
  onUploaded: () => void;
  /** Nothing left to send. */
  onIdle: () => void;
  /** Stand-in for the network in tests; the real one sends resumable uploads (`resumable.ts`). */
  uploader?: Uploader;
};

function hasFiles(e: { dataTransfer: DataTransfer | null }): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

export function UploadPanel({ eventKey, onUploaded, onIdle, uploader }: Props) {
  const t = useAdminPhotosT();
  const toast = useToast();
  const inputId = useId();
  // A refused upload is not a query the frame watches: it asks for the session itself.
  const onSignedOut = useSessionCheck();

  // The queue outlives renders; it calls whatever callbacks the latest render handed in.
  const callbacks = useRef({ onUploaded, onIdle, onSignedOut });
  useEffect(() => {
    callbacks.current = { onUploaded, onIdle, onSignedOut };
  }, [onUploaded, onIdle, onSignedOut]);
  const [queue] = useState(
    () =>
      new UploadQueue({
        upload: uploader ?? resumableUploader(eventKey),
        onUploaded: () => callbacks.current.onUploaded(),
        onIdle: () => callbacks.current.onIdle(),
        onSignedOut: () => callbacks.current.onSignedOut(),
      }),
  );
  useEffect(() => {
    queue.start();
    return () => queue.stop();
  }, [queue]);

  const items = useSyncExternalStore(queue.subscribe, queue.snapshot);
  const summary = summarize(items);
  const retryable = items.filter((item) => item.state === 'failed' && item.retryable).length;

  // Leaving the page cuts off the uploads: let the browser ask first.
  const busy = summary.left > 0;
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  // A photo dropped just beside the zone must not make the browser open it instead.
  useEffect(() => {
    const block = (e: globalThis.DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    window.addEventListener('dragover', block);
    window.addEventListener('drop', block);
    return () => {
      window.removeEventListener('dragover', block);
      window.removeEventListener('drop', block);
    };
  }, []);

  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const take = (files: FileList | null) => {
    const list = Array.from(files ?? []);
    if (list.length === 0) return;
    const refused = list.filter((file) => photoContentType(file) === null).length;
    if (refused > 0) toast.warning(t('adminPhotos.upload.refused', { count: refused }));
    queue.add(list);
  };

  const onDragEnter = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth.current++;
    setDragging(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    depth.current = 0;
    setDragging(false);
    take(e.dataTransfer.files);
  };

  return (
    <section className="card admin-upload" aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`}>{t('adminPhotos.upload.heading')}</h2>
      <div
        className={`admin-drop-zone${dragging ? ' admin-drop-zone-active' : ''}`}
        data-testid="drop-zone"
        data-dragging={dragging ? 'true' : 'false'}
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <p className="admin-drop-text">
          {dragging ? t('adminPhotos.upload.dropActive') : t('adminPhotos.upload.drop')}
        </p>
        <p className="muted admin-drop-or">{t('adminPhotos.upload.or')}</p>
        <label htmlFor={inputId} className="btn btn-primary admin-drop-choose">
          {t('adminPhotos.upload.choose')}
        </label>
        <input
          id={inputId}
          className="visually-hidden admin-drop-input"
          type="file"
          multiple
          accept={PHOTO_TYPES.join(',')}
          data-testid="photo-input"
          onChange={(e) => {
            take(e.currentTarget.files);
            // The same files may be chosen again after a failure.
            e.currentTarget.value = '';
          }}
        />
        <p className="muted admin-drop-hint">{t('adminPhotos.upload.hint', { mb: MAX_PHOTO_MB })}</p>
      </div>

      {items.length > 0 && (
        <>
          <div className="row admin-upload-bar">
            <p className="admin-upload-summary" data-testid="upload-summary" aria-live="polite">
              {t('adminPhotos.upload.summary', summary)}
            </p>
            {retryable > 0 && (
              <button type="button" className="btn btn-accent btn-small" data-testid="retry-failed" onClick={() => queue.retryFailed()}>
                {t('adminPhotos.upload.retryFailed', { count: retryable })}
              </button>
            )}
            {summary.done > 0 && (
              <button type="button" className="btn btn-secondary btn-small" onClick={() => queue.clearDone()}>
                {t('adminPhotos.upload.clearDone')}
              </button>
            )}
          </div>
          <ul className="admin-upload-list" aria-label={t('adminPhotos.upload.fileList')}>
            {items.map((item) => (
              <UploadRow key={item.id} item={item} t={t} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

// Rows are immutable objects: one file's progress re-renders only its own row.
const UploadRow = memo(function UploadRow({ item, t }: { item: UploadItem; t: AdminPhotosT }) {
  const errorText = useErrorText();
  let status: string;
  switch (item.state) {
    case 'waiting':
      status = t('adminPhotos.upload.waiting');
      break;
    case 'uploading':
      status = t('adminPhotos.upload.uploading', { percent: item.percent });
      break;
    case 'done':
      status = item.result === 'exists' ? t('adminPhotos.upload.exists') : t('adminPhotos.upload.queued');
      break;
    case 'failed': {
      const reason =
        item.error?.code === 'payload_too_large'
          ? t('adminPhotos.upload.tooLarge', { mb: MAX_PHOTO_MB })
          : errorText(item.error);
      status = t('adminPhotos.upload.failed', { reason });
      if (item.retryable) status = `${status} ${t('adminPhotos.upload.willRetry')}`;
      break;
    }
  }
  return (
    <li
      className={`admin-upload-row admin-upload-${item.state}`}
      data-testid="upload-row"
      data-state={item.state}
      data-result={item.result ?? undefined}
      data-retryable={item.state === 'failed' ? String(item.retryable) : undefined}
    >
      <span className="admin-upload-name">{item.file.name}</span>
      <span className="admin-upload-status">{status}</span>
      {item.state === 'uploading' && (
        <progress className="admin-upload-progress" max={100} value={item.percent} aria-label={item.file.name} />
      )}
    </li>
  );
});
