//! Console privacy requests (/admin/privacy, admins): the requests to hide one's photos of an
//! event, by state (pending, approved, rejected; kept in the address), each with its event,
//! the masked contact, when it was made and decided and by whom, whether the requester was
//! told, and the photos it would hide (pending) or hides (approved), beside the requester's
//! face as the selfie showed it (a small picture the server keeps only until the decision,
//! so the operator can tell whether the matches are really that person). A pending request
//! is approved (its photos hidden, also those added later) or rejected (its face template
//! deleted), each after a confirmation; every list is asked again after a decision.

import './admin-privacy.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useDialog } from '@/components/Dialog';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { AdminOnly } from '../shell/operator';
import { isSignedOut } from '../shell/session';
import { privacyMessages } from './messages';
import {
  approvePrivacyRequest,
  isPrivacyState,
  PRIVACY_STATES,
  privacyKeys,
  rejectPrivacyRequest,
  usePrivacyRequests,
  type AdminPrivacyRequest,
  type PrivacyState,
} from './api';

export function PrivacyRequestsPage() {
  const t = useDictionary(privacyMessages);
  return (
    <section className="page admin-privacy stack">
      <h1>{t('adminPrivacy.title')}</h1>
      <p className="muted">{t('adminPrivacy.help')}</p>
      <AdminOnly>
        <PrivacyRequests />
      </AdminOnly>
    </section>
  );
}

function PrivacyRequests() {
  const t = useDictionary(privacyMessages);
  const common = useT();
  const [params, setParams] = useSearchParams();
  const raw = params.get('state');
  const state: PrivacyState = isPrivacyState(raw) ? raw : 'pending';
  const list = usePrivacyRequests(state);

  return (
    <>
      <div className="admin-privacy-tabs" role="tablist" aria-label={t('adminPrivacy.state')}>
        {PRIVACY_STATES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            className="btn btn-secondary btn-small"
            aria-selected={s === state}
            data-testid={`privacy-tab-${s}`}
            onClick={() => setParams(s === 'pending' ? {} : { state: s })}
          >
            {t(`adminPrivacy.state.${s}`)}
          </button>
        ))}
      </div>
      {list.isPending && <Spinner label={common('loading')} />}
      {list.isError && <ErrorAlert error={list.error} testId="privacy-load-error" />}
      {list.data?.requests.length === 0 && (
        <p className="muted" data-testid="privacy-empty">
          {t('adminPrivacy.empty')}
        </p>
      )}
      {list.data?.requests.map((request) => (
        <RequestCard key={request.request_id} request={request} />
      ))}
    </>
  );
}

function RequestCard({ request }: { request: AdminPrivacyRequest }) {
  const t = useDictionary(privacyMessages);
  const [lang] = useLanguage();
  const errorText = useErrorText();
  const toast = useToast();
  const { confirm } = useDialog();
  const client = useQueryClient();
  const when = (value: string | null | undefined) => (value ? formatBangkokDateTime(value, lang) : '—');
  const pending = request.state === 'pending';
  const count = request.photos.length;
  const vars = { count, event: request.event_title, contact: request.contact };

  const refresh = () => client.invalidateQueries({ queryKey: privacyKeys.all });
  // A session that has ended is the frame's business; a request decided meanwhile
  // (409 `privacy_request_decided`) is told, and the lists show its state.
  const fail = (e: unknown) => {
    if (!isSignedOut(e)) toast.error(errorText(e));
    void refresh();
  };
  const approve = useMutation({
    mutationFn: () => approvePrivacyRequest(request.request_id),
    onSuccess: (done) => {
      toast.success(t('adminPrivacy.approve.done', { count: done.photos_hidden }));
      return refresh();
    },
    onError: fail,
  });
  const reject = useMutation({
    mutationFn: () => rejectPrivacyRequest(request.request_id),
    onSuccess: () => {
      toast.success(t('adminPrivacy.reject.done'));
      return refresh();
    },
    onError: fail,
  });
  const busy = approve.isPending || reject.isPending;

  const onApprove = async () => {
    const ok = await confirm({
      title: t('adminPrivacy.approve.title'),
      text: t('adminPrivacy.approve.text', vars),
      okLabel: t('adminPrivacy.approve.ok'),
      tone: 'warning',
    });
    if (ok) approve.mutate();
  };
  const onReject = async () => {
    const ok = await confirm({
      title: t('adminPrivacy.reject.title'),
      text: t('adminPrivacy.reject.text', vars),
      okLabel: t('adminPrivacy.reject.ok'),
      tone: 'warning',
    });
    if (ok) reject.mutate();
  };

  const fields: [string, string, string][] = [
    [t('adminPrivacy.requestId'), request.request_id, 'id'],
    [t('adminPrivacy.event'), `${request.event_title} (${request.event_key})`, 'event'],
    [t('adminPrivacy.contact'), request.contact, 'contact'],
    [t('adminPrivacy.createdAt'), when(request.created_at), 'created-at'],
    [t('adminPrivacy.decidedAt'), when(request.decided_at), 'decided-at'],
    [t('adminPrivacy.decidedBy'), request.decided_by ?? '—', 'decided-by'],
    [t('adminPrivacy.notified'), request.notified ? t('adminPrivacy.yes') : t('adminPrivacy.no'), 'notified'],
  ];

  return (
    <article className="card stack" data-testid="privacy-request" data-request-id={request.request_id}>
      <dl className="admin-privacy-fields">
        {fields.map(([label, value, name]) => (
          <div key={name}>
            <dt>{label}</dt>
            <dd data-testid={`privacy-${name}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {request.state !== 'rejected' && (
        <div className={request.face_url ? 'admin-privacy-compare' : undefined}>
          {request.face_url && (
            <figure className="admin-privacy-face" data-testid="privacy-face">
              <img src={request.face_url} alt={t('adminPrivacy.faceAlt')} />
              <figcaption className="muted">{t('adminPrivacy.face')}</figcaption>
            </figure>
          )}
          <div className="stack">
            <h2>{t(pending ? 'adminPrivacy.photos.pending' : 'adminPrivacy.photos.approved', { count })}</h2>
            {count === 0 ? (
              <p className="muted">{t('adminPrivacy.photos.none')}</p>
            ) : (
              <ul className="admin-privacy-photos" data-testid="privacy-photos">
                {request.photos.map((photo) => (
                  <li key={photo.photo_id} data-testid="privacy-photo">
                    <img src={photo.thumbnail_url} alt={t('adminPrivacy.photoAlt', { id: photo.photo_id })} loading="lazy" />
                    {typeof photo.similarity === 'number' && (
                      <small>{t('adminPrivacy.similarity', { percent: Math.round(photo.similarity * 100) })}</small>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
      {pending && (
        <div className="row">
          <button
            type="button"
            className="btn btn-danger"
            data-testid="privacy-approve"
            disabled={busy}
            onClick={() => void onApprove()}
          >
            {t('adminPrivacy.approve')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            data-testid="privacy-reject"
            disabled={busy}
            onClick={() => void onReject()}
          >
            {t('adminPrivacy.reject')}
          </button>
        </div>
      )}
    </article>
  );
}
