//! One photo of the console grid: its thumbnail (or its state until it is ready), what
//! processing found (faces, bib numbers, with the bibs' corrections), and hide / highlight /
//! delete. A photo in an order cannot be deleted
//! (409 `photo_sold`, worded by the shared error texts): hiding it is offered instead. A photo
//! an approved privacy request hides cannot be shown again (409 `privacy_hold`, told likewise).

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { failureCode } from '@/api/client';
import { useDialog } from '@/components/Dialog';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { adminKeys } from '../shell/api';
import { isSignedOut } from '../shell/session';
import { changePhoto, deletePhoto, photoKeys, type AdminPhoto, type PhotoFlags } from './api';
import { useAdminPhotosT } from './i18n';
import { PhotoBibs } from './PhotoBibs';
import { isPhotoState } from './states';

type Props = { photo: AdminPhoto; eventKey: string };

export function PhotoCard({ photo, eventKey }: Props) {
  const t = useAdminPhotosT();
  const errorText = useErrorText();
  const toast = useToast();
  const { confirm, alert } = useDialog();
  const client = useQueryClient();

  // Waiting for the refetch keeps the buttons disabled until the grid shows the new state.
  const refresh = () => client.invalidateQueries({ queryKey: photoKeys.event(eventKey) });
  // A session that has ended is the frame's business (it sends the operator to sign in).
  const fail = (e: unknown) => {
    if (!isSignedOut(e)) toast.error(errorText(e));
  };

  const change = useMutation({
    mutationFn: (flags: PhotoFlags) => changePhoto(photo.id, flags),
    onSuccess: refresh,
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => deletePhoto(photo.id),
    onSuccess: () => {
      toast.success(t('adminPhotos.delete.done'));
      void client.invalidateQueries({ queryKey: adminKeys.events });
      return refresh();
    },
  });
  const busy = change.isPending || remove.isPending;
  const name = photo.original_file_name;

  const onDelete = async () => {
    const ok = await confirm({
      title: t('adminPhotos.delete.title'),
      text: t('adminPhotos.delete.text', { name }),
      okLabel: t('adminPhotos.delete.ok'),
      tone: 'warning',
    });
    if (!ok) return;
    try {
      await remove.mutateAsync();
    } catch (e) {
      if (failureCode(e) !== 'photo_sold') {
        fail(e);
        return;
      }
      if (photo.hidden) {
        await alert({ title: name, text: errorText(e), tone: 'warning' });
        return;
      }
      const hide = await confirm({ title: name, text: errorText(e), okLabel: t('adminPhotos.sold.hide'), tone: 'warning' });
      if (hide) change.mutate({ hidden: true });
    }
  };

  /** A button that sets one of the photo's flags (hidden, highlight) the other way. */
  const toggle = (testId: string, flags: PhotoFlags, label: string) => (
    <button type="button" className="btn btn-secondary btn-small" data-testid={testId} disabled={busy} onClick={() => change.mutate(flags)}>
      {label}
    </button>
  );

  const ready = photo.state === 'ready' && photo.thumbnail_url;
  // A state this build does not know yet is shown as the server wrote it.
  const stateText = isPhotoState(photo.state) ? t(`adminPhotos.state.${photo.state}`) : photo.state;
  return (
    <li
      className={`admin-photo-card${photo.hidden ? ' admin-photo-hidden' : ''}${photo.highlight ? ' admin-photo-highlight' : ''}`}
      data-testid="admin-photo"
      data-state={photo.state}
      data-photo-id={photo.id}
      data-hidden={String(photo.hidden)}
      data-highlight={String(photo.highlight)}
    >
      {ready ? (
        <img
          className="admin-photo-thumb"
          src={photo.thumbnail_url ?? undefined}
          alt={name}
          width={400}
          height={300}
          loading="lazy"
          decoding="async"
        />
      ) : (
        <div className={`admin-photo-thumb admin-photo-placeholder admin-state-soft-${photo.state}`}>
          {stateText}
        </div>
      )}
      <div className="admin-photo-body">
        <p className="admin-photo-name" title={name}>
          {name}
        </p>
        <p className="admin-photo-badges">
          {photo.state !== 'ready' && (
            <span className={`chip admin-state-chip admin-state-soft-${photo.state}`}>{stateText}</span>
          )}
          {photo.hidden && <span className="chip">{t('adminPhotos.grid.hiddenBadge')}</span>}
          {photo.highlight && <span className="chip admin-chip-highlight">{t('adminPhotos.grid.highlightBadge')}</span>}
        </p>
        {photo.state === 'ready' && <p className="muted">{t('adminPhotos.grid.faces', { count: photo.face_count })}</p>}
        {photo.state === 'ready' && <PhotoBibs photoId={photo.id} bibs={photo.bibs} refresh={refresh} disabled={busy} />}
        {photo.state === 'failed' && photo.failure_reason && (
          <p className="danger admin-photo-reason">{t('adminPhotos.grid.reason', { reason: photo.failure_reason })}</p>
        )}
      </div>
      <div className="admin-photo-actions" role="group" aria-label={t('adminPhotos.grid.actions', { name })}>
        {toggle('toggle-hidden', { hidden: !photo.hidden }, t(photo.hidden ? 'adminPhotos.grid.unhide' : 'adminPhotos.grid.hide'))}
        {toggle(
          'toggle-highlight',
          { highlight: !photo.highlight },
          t(photo.highlight ? 'adminPhotos.grid.highlightOff' : 'adminPhotos.grid.highlightOn'),
        )}
        <button type="button" className="btn btn-danger btn-small" data-testid="delete-photo" disabled={busy} onClick={() => void onDelete()}>
          {t('adminPhotos.grid.delete')}
        </button>
      </div>
    </li>
  );
}
