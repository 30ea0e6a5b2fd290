//! Terms and policy consent, asked once per event before any face or bib search (a
//! bib search also matches the faces in the event's photos), on the event, wholesale and
//! manual search pages alike: accepting stores `consent_{event_key}` = Y, declining sends
//! the visitor home. It also leads to the page asking for one's photos to be hidden.

import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { consentKey, readRaw, useStoredRaw, writeRaw } from '@/lib/storage';
import { useT } from './messages';

/** Whether the visitor accepted the terms for this event (on any of its pages). */
export function hasConsent(eventKey: string): boolean {
  return readRaw(consentKey(eventKey)) === 'Y';
}

export function ConsentDialog({ eventKey }: { eventKey: string }) {
  const given = useStoredRaw(consentKey(eventKey)) === 'Y';
  if (given) return null;
  return <ConsentModal eventKey={eventKey} />;
}

function ConsentModal({ eventKey }: { eventKey: string }) {
  const t = useT();
  const navigate = useNavigate();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || el.open) return;
    // jsdom and old browsers lack showModal: an open dialog still shows.
    if (typeof el.showModal === 'function') el.showModal();
    else el.setAttribute('open', '');
    return () => {
      if (typeof el.close === 'function') el.close();
    };
  }, []);

  const accept = () => writeRaw(consentKey(eventKey), 'Y');
  const decline = () => void navigate('/');

  return (
    <dialog
      ref={ref}
      className="dialog consent-dialog"
      aria-labelledby="consent-title"
      data-testid="consent-dialog"
      // Escape must not skip the question.
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id="consent-title">{t('event.consent.title')}</h2>
      <div className="dialog-text stack">
        <p>{t('event.consent.text')}</p>
        <p className="row">
          <Link to="/terms-of-use" target="_blank" rel="noopener">
            {t('event.consent.terms')}
          </Link>
          <Link to="/refund-policy" target="_blank" rel="noopener">
            {t('event.consent.refund')}
          </Link>
        </p>
        <p>
          <Link to={`/${eventKey}/hide-my-photos`} data-testid="consent-hide-link">
            {t('event.hideLink')}
          </Link>
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" data-testid="consent-decline" onClick={decline}>
          {t('event.consent.decline')}
        </button>
        <button type="button" className="btn btn-primary" data-testid="consent-accept" onClick={accept} autoFocus>
          {t('event.consent.accept')}
        </button>
      </div>
    </dialog>
  );
}
