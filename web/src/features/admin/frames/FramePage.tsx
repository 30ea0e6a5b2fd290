//! An event's sponsor frame (`/admin/events/:eventKey/frame`, admins). The frame is drawn
//! over the event's previews and carried by its free downloads; when chosen, sold photos
//! get a framed copy too. The page shows the frame in use over a grey 3:2 photo (so its
//! see-through part shows), uploads a new one (a PNG or an SVG, checked here for type and
//! size before anything is sent, then checked whole by the server), saves the sold-photos
//! choice as soon as it is ticked, and takes the frame off after asking in a dialog.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type CSSProperties, type SyntheticEvent } from 'react';
import { useParams } from 'react-router';
import { useDialog } from '@/components/Dialog';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { readBytes } from '@/lib/files';
import { RetryAlert } from '../shell/RetryAlert';
import { isSignedOut } from '../shell/session';
import {
  MAX_FRAME_BYTES,
  fetchFrame,
  frameKey,
  frameKind,
  removeFrame,
  saveFrameSettings,
  uploadFrame,
  type Frame,
  type FrameKind,
} from './api';
import { frameMessages } from './messages';

const MAX_FRAME_MB = MAX_FRAME_BYTES / (1024 * 1024);

/** A neutral grey 3:2 photo, so the frame's see-through part shows. */
const PREVIEW_BOX: CSSProperties = {
  position: 'relative',
  width: '100%',
  maxWidth: '36rem',
  aspectRatio: '3 / 2',
  background: '#9e9e9e',
};
/** The frame over it, stretched to the box as the server stretches it to each photo. */
const PREVIEW_FRAME: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%' };

export function FramePage() {
  const t = useDictionary(frameMessages);
  const common = useT();
  const eventKey = useParams().eventKey ?? '';
  const frame = useQuery({ queryKey: frameKey(eventKey), queryFn: () => fetchFrame(eventKey) });
  return (
    <section className="admin-page stack">
      <h1>{t('adminFrame.title', { event: eventKey })}</h1>
      <p className="muted">{t('adminFrame.intro', { mb: MAX_FRAME_MB })}</p>
      {frame.isPending && <Spinner label={common('loading')} />}
      {frame.isError && <RetryAlert query={frame} />}
      {frame.isSuccess && <FrameForms eventKey={eventKey} frame={frame.data} />}
    </section>
  );
}

function FrameForms({ eventKey, frame }: { eventKey: string; frame: Frame }) {
  const t = useDictionary(frameMessages);
  const errorText = useErrorText();
  const client = useQueryClient();
  const common = useT();
  const { confirm } = useDialog();
  const [file, setFile] = useState<File | null>(null);
  // A new file input after an upload, so the one sent is no longer shown as chosen.
  const [inputKey, setInputKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const saved = (answer: Frame) => client.setQueryData(frameKey(eventKey), answer);
  const onError = (e: unknown) => {
    if (!isSignedOut(e)) setProblem(errorText(e));
  };
  const upload = useMutation({
    mutationFn: ({ bytes, kind }: { bytes: Uint8Array; kind: FrameKind }) => uploadFrame(eventKey, bytes, kind),
    onSuccess: (answer) => {
      saved(answer);
      setFile(null);
      setInputKey((k) => k + 1);
      setNote(t('adminFrame.uploaded'));
    },
    onError,
  });
  const settings = useMutation({
    mutationFn: (onSold: boolean) => saveFrameSettings(eventKey, { on_sold: onSold }),
    onSuccess: (answer) => {
      saved(answer);
      setNote(t(answer.on_sold ? 'adminFrame.onSoldOn' : 'adminFrame.onSoldOff'));
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => removeFrame(eventKey),
    onSuccess: () => {
      saved({ on_sold: false });
      setNote(t('adminFrame.removed'));
    },
    onError,
  });
  const busy = upload.isPending || settings.isPending || remove.isPending;

  const start = () => {
    setProblem(null);
    setNote(null);
  };
  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    start();
    if (file === null) {
      setProblem(t('adminFrame.noFile'));
      return;
    }
    const kind = frameKind(file);
    if (kind === null) {
      setProblem(t('adminFrame.wrongType', { name: file.name }));
      return;
    }
    if (file.size > MAX_FRAME_BYTES) {
      setProblem(t('adminFrame.tooLarge', { name: file.name, mb: MAX_FRAME_MB }));
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(file);
    } catch {
      setProblem(t('adminFrame.unreadable', { name: file.name }));
      return;
    }
    upload.mutate({ bytes, kind });
  };
  const takeOff = async () => {
    start();
    const ok = await confirm({
      title: t('adminFrame.remove'),
      text: t('adminFrame.removeConfirm'),
      okLabel: t('adminFrame.remove'),
      cancelLabel: common('cancel'),
      tone: 'warning',
    });
    if (ok) remove.mutate();
  };

  const onSold = settings.isPending ? settings.variables : frame.on_sold;
  // Absent, or null, when the event has no frame.
  const frameUrl = frame.frame_url ?? null;
  return (
    <>
      {problem !== null && (
        <p className="alert alert-danger" role="alert" data-testid="frame-problem">
          {problem}
        </p>
      )}
      {note !== null && (
        <p className="alert alert-success" role="status" data-testid="frame-done">
          {note}
        </p>
      )}
      <section className="card stack" aria-labelledby="frame-current">
        <h2 id="frame-current">{t('adminFrame.current')}</h2>
        {frameUrl === null ? (
          <p className="muted" data-testid="frame-none">
            {t('adminFrame.none')}
          </p>
        ) : (
          <>
            <div data-testid="frame-preview" style={PREVIEW_BOX}>
              <img src={frameUrl} alt={t('adminFrame.preview')} style={PREVIEW_FRAME} />
            </div>
            <label className="row" htmlFor="frame-on-sold">
              <input
                id="frame-on-sold"
                type="checkbox"
                checked={onSold}
                disabled={busy}
                onChange={(e) => {
                  start();
                  settings.mutate(e.currentTarget.checked);
                }}
                data-testid="frame-on-sold"
              />
              <span>{t('adminFrame.onSold')}</span>
            </label>
            <div className="row">
              <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void takeOff()} data-testid="frame-remove">
                {remove.isPending && <Spinner inline />}
                {t('adminFrame.remove')}
              </button>
            </div>
          </>
        )}
      </section>
      <form className="card stack" noValidate onSubmit={(e) => void submit(e)} data-testid="frame-form">
        <InputField
          key={inputKey}
          id="frame-file"
          type="file"
          accept="image/png,image/svg+xml,.svg"
          label={t('adminFrame.choose')}
          disabled={busy}
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          data-testid="frame-file"
        />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="frame-upload">
            {upload.isPending && <Spinner inline />}
            {t('adminFrame.upload')}
          </button>
        </div>
      </form>
    </>
  );
}
