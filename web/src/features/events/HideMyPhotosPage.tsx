//! "Hide my photos" (/{event_key}/hide-my-photos, and /hide-my-photos to choose the event
//! first, linked from the terms): the right to object under the Thai PDPA and what happens to
//! a request (the selfie deleted at once, only the face template and a small picture of the
//! face kept until decided, the picture deleted at the decision; once approved the photos
//! showing the face are hidden from every search, the highlights and the manual page, also
//! those added later; bought photos stay with their buyers; the requester is told by SMS or
//! e-mail), then the form: a contact (Thai mobile number or e-mail), a selfie of one person
//! with the search's checks (JPEG/PNG, 5 MB), and consent. Sent as a multipart form; the
//! answer is the request's number, or the server's refusal next to the field it concerns:
//! a group photo, or a face that already has a request, is told beside the selfie.

import './events.css';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiFailure, failureCode } from '@/api/client';
import type { ShopEvent } from '@/api/event';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { useErrorText } from '@/i18n/errors';
import { MAX_SELFIE_BYTES, SELFIE_TYPES } from '@/lib/constants';
import { requestHiding, useEventsOnSale } from './api';
import { useAddressEvent } from './useEvent';
import { useT } from './messages';

/** A Thai mobile number (spaces and dashes allowed) or an e-mail address. */
export function isContact(raw: string): boolean {
  const value = raw.trim();
  if (/^0[0-9]{8,9}$/.test(value.replace(/[\s-]/g, ''))) return true;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** The right to object and what a request leads to. */
function Explanation() {
  const t = useT();
  return (
    <div className="card stack" data-testid="hide-explanation">
      <p>{t('event.hide.intro')}</p>
      <h2>{t('event.hide.what')}</h2>
      <ul className="hide-steps">
        <li>{t('event.hide.step.selfie')}</li>
        <li>{t('event.hide.step.approved')}</li>
        <li>{t('event.hide.step.rejected')}</li>
        <li>{t('event.hide.step.bought')}</li>
        <li>{t('event.hide.step.told')}</li>
      </ul>
    </div>
  );
}

export function HideMyPhotosPage() {
  const t = useT();
  const event = useAddressEvent();
  if (!event) return <Spinner label={t('event.loading')} />;
  return (
    <section className="page narrow stack hide-page">
      <title>{`${t('event.hide.title')} | ${event.title} | Raceshot`}</title>
      <h1>{t('event.hide.title')}</h1>
      <p className="hide-event" data-testid="hide-event">
        {t('event.hide.event')}: <strong>{event.title}</strong>
      </p>
      <Explanation />
      <HideForm key={event.event_key} event={event} />
      <p>
        <Link to={`/${event.event_key}`}>{t('event.hide.back')}</Link>
      </p>
    </section>
  );
}

/** /hide-my-photos: the same explanation, and the event to choose (those showing photos). */
export function HidePickEventPage() {
  const t = useT();
  const navigate = useNavigate();
  const events = useEventsOnSale();
  const [key, setKey] = useState('');
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (key !== '') void navigate(`/${key}/hide-my-photos`);
  };
  return (
    <section className="page narrow stack hide-page">
      <title>{`${t('event.hide.pickTitle')} | Raceshot`}</title>
      <h1>{t('event.hide.pickTitle')}</h1>
      <Explanation />
      {events.isPending && <Spinner label={t('event.loading')} />}
      {events.isError && <ErrorAlert error={events.error} />}
      {events.data?.length === 0 && <p className="muted">{t('event.hide.pickNone')}</p>}
      {events.data !== undefined && events.data.length > 0 && (
        <form className="card stack" onSubmit={submit} data-testid="hide-pick-form">
          <div className="field">
            <label htmlFor="hide-pick-event">{t('event.hide.pick')}</label>
            <select id="hide-pick-event" data-testid="hide-pick-event" value={key} onChange={(e) => setKey(e.target.value)}>
              <option value="">—</option>
              {events.data.map((ev: ShopEvent) => (
                <option key={ev.event_key} value={ev.event_key}>
                  {ev.title}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-primary" data-testid="hide-pick-go" disabled={key === ''}>
            {t('event.hide.pickGo')}
          </button>
        </form>
      )}
    </section>
  );
}

type Field = 'contact' | 'file' | 'consent';
/** Server refusals told beside the selfie (one request per face, whoever sends it). */
const FILE_CODES = new Set([
  'no_face',
  'selfie_many_faces',
  'privacy_request_exists',
  'file_too_large',
  'unsupported_image_type',
  'unreadable_image',
  'image_too_many_pixels',
]);

function HideForm({ event }: { event: ShopEvent }) {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [contact, setContact] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [consent, setConsent] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const send = useMutation({ mutationFn: requestHiding });

  // Where the server's refusal belongs: beside a field, or above the button.
  const failure = send.error;
  const code = failure === null ? null : failureCode(failure);
  const fieldOf = (): Field | null => {
    if (code === null) return null;
    if (FILE_CODES.has(code)) return 'file';
    if (code === 'invalid_field') {
      const field = failure instanceof ApiFailure ? failure.field : null;
      return field === 'file' ? 'file' : field === 'contact' ? 'contact' : null;
    }
    return null;
  };
  const serverField = fieldOf();
  const shown: Partial<Record<Field, string>> = { ...problems };
  if (serverField !== null && failure !== null) shown[serverField] = errorText(failure);

  const chooseFile = (chosen: File | undefined) => {
    setFile(chosen ?? null);
    send.reset();
    const next = { ...problems };
    delete next.file;
    if (chosen && !(SELFIE_TYPES as readonly string[]).includes(chosen.type)) next.file = t('event.upload.wrongType');
    else if (chosen && chosen.size > MAX_SELFIE_BYTES) next.file = t('event.upload.tooLarge');
    setProblems(next);
  };

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    const found: Partial<Record<Field, string>> = {};
    if (!isContact(contact)) found.contact = t('event.hide.error.contact');
    if (file === null) found.file = t('event.hide.error.file');
    else if (!(SELFIE_TYPES as readonly string[]).includes(file.type)) found.file = t('event.upload.wrongType');
    else if (file.size > MAX_SELFIE_BYTES) found.file = t('event.upload.tooLarge');
    if (!consent) found.consent = t('event.hide.error.consent');
    setProblems(found);
    if (Object.keys(found).length > 0 || file === null) return;
    send.mutate({ eventKey: event.event_key, contact: contact.trim(), file });
  };

  if (send.isSuccess) {
    return (
      <div className="alert alert-info stack" role="status" data-testid="hide-done">
        <strong>{t('event.hide.done.title')}</strong>
        <div>
          {t('event.hide.done.id')}: <code data-testid="hide-request-id">{send.data.request_id}</code>
        </div>
        <div>{t('event.hide.done.next', { contact: contact.trim() })}</div>
      </div>
    );
  }

  const problem = (field: Field) =>
    shown[field] === undefined ? null : (
      <p className="field-error" id={`${id}-${field}-error`} data-testid={`hide-${field}-error`} role="alert">
        {shown[field]}
      </p>
    );
  const describedBy = (field: Field) => (shown[field] === undefined ? undefined : `${id}-${field}-error`);

  return (
    <form className="card stack hide-form" onSubmit={submit} noValidate data-testid="hide-form">
      <div className="field">
        <label htmlFor={`${id}-contact`}>{t('event.hide.contact')}</label>
        <input
          id={`${id}-contact`}
          type="text"
          name="contact"
          inputMode="email"
          autoComplete="email"
          value={contact}
          placeholder={t('event.hide.contactHint')}
          onChange={(e) => {
            setContact(e.target.value);
            send.reset();
          }}
          aria-invalid={shown.contact !== undefined || undefined}
          aria-describedby={describedBy('contact')}
          data-testid="hide-contact"
        />
        {problem('contact')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>{t('event.hide.selfie')}</label>
        <input
          id={`${id}-file`}
          type="file"
          name="file"
          accept="image/jpeg,image/png"
          onChange={(e) => chooseFile(e.target.files?.[0])}
          aria-invalid={shown.file !== undefined || undefined}
          aria-describedby={describedBy('file')}
          data-testid="hide-file"
        />
        {problem('file')}
      </div>
      <div className="field">
        <label className="hide-consent">
          <input
            type="checkbox"
            checked={consent}
            onChange={(e) => setConsent(e.target.checked)}
            aria-invalid={shown.consent !== undefined || undefined}
            aria-describedby={describedBy('consent')}
            data-testid="hide-consent"
          />
          <span>{t('event.hide.consent')}</span>
        </label>
        {problem('consent')}
      </div>
      {failure !== null && serverField === null && <ErrorAlert error={failure} testId="hide-error" />}
      <button type="submit" className="btn btn-primary btn-block" data-testid="hide-submit" disabled={send.isPending}>
        {send.isPending ? t('event.hide.sending') : t('event.hide.submit')}
      </button>
    </form>
  );
}
