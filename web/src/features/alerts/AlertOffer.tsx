//! "Tell me when new photos of me arrive": offered under a face search that ran (found or
//! not) while the page still holds the selfie, where the shop offers alerts (the `ALERTS`
//! setting names the channels). One button at first; opened, the channels offered (LINE
//! first), the mobile number for SMS, and a consent box of its own, unticked, saying what is
//! kept (a template of the selfie's face, for this event only), until when, and that neither
//! search nor purchase needs it: nothing is sent before it is ticked. An SMS alert is
//! confirmed here with the code texted; a LINE one by LINE Login, a full-page navigation
//! that comes back to the event page (`AlertOutcome`).

import './alerts.css';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { ApiFailure, failureCode } from '@/api/client';
import { ErrorAlert } from '@/components/ErrorAlert';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useLanguage } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { ACCESS_CODE_LENGTH } from '@/lib/constants';
import { formatBangkokDayOf } from '@/lib/dates';
import { alertChannelsQuery, askAlert, confirmAlert, type AlertAsked, type AlertBody, type AlertChannel } from './api';
import { useT } from './messages';

/** A Thai mobile number once spaces and dashes are taken out. */
const THAI_MOBILE = /^0[0-9]{9}$/;
const CODE = new RegExp(`^[0-9]{${ACCESS_CODE_LENGTH}}$`);

type Props = { eventKey: string; selfie: File };

type Step =
  | { at: 'closed' }
  | { at: 'form' }
  | { at: 'line' }
  | { at: 'code'; asked: AlertAsked }
  | { at: 'on'; alert: AlertBody };

/** A number per selfie: a new search's selfie starts the offer afresh. */
const selfieIds = new WeakMap<File, number>();
let selfiesSeen = 0;
function selfieId(file: File): number {
  let id = selfieIds.get(file);
  if (id === undefined) {
    id = ++selfiesSeen;
    selfieIds.set(file, id);
  }
  return id;
}

export function AlertOffer({ eventKey, selfie }: Props) {
  const channels = useQuery(alertChannelsQuery).data ?? [];
  if (channels.length === 0) return null;
  return <AlertSteps key={selfieId(selfie)} eventKey={eventKey} selfie={selfie} channels={channels} />;
}

function AlertSteps({ eventKey, selfie, channels }: Props & { channels: AlertChannel[] }) {
  const t = useT();
  const headingId = useId();
  const [step, setStep] = useState<Step>({ at: 'closed' });

  const asked = (answer: AlertAsked) => {
    if (answer.next === 'line' && answer.line_url) {
      setStep({ at: 'line' });
      window.location.assign(answer.line_url);
    } else {
      setStep({ at: 'code', asked: answer });
    }
  };

  if (step.at === 'closed') {
    return (
      <div className="alert-offer" data-testid="alert-offer">
        <button type="button" className="btn btn-secondary btn-block" data-testid="alert-open" onClick={() => setStep({ at: 'form' })}>
          {t('alert.offer.open')}
        </button>
      </div>
    );
  }
  return (
    <section className="card stack alert-offer" data-testid="alert-offer" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('alert.offer.open')}</h2>
      {step.at === 'form' && <AlertForm eventKey={eventKey} selfie={selfie} channels={channels} onAsked={asked} />}
      {step.at === 'line' && <Spinner label={t('alert.offer.toLine')} />}
      {step.at === 'code' && (
        <AlertCode asked={step.asked} onOn={(alert) => setStep({ at: 'on', alert })} onAgain={() => setStep({ at: 'form' })} />
      )}
      {step.at === 'on' && <AlertOn alert={step.alert} />}
    </section>
  );
}

type FormProps = Props & { channels: AlertChannel[]; onAsked: (answer: AlertAsked) => void };

/** The channel, the number for SMS, the consent box, and the request. */
function AlertForm({ eventKey, selfie, channels, onAsked }: FormProps) {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [channel, setChannel] = useState<AlertChannel>(channels[0] ?? 'line');
  const [mobile, setMobile] = useState('');
  const [badMobile, setBadMobile] = useState(false);
  const [consent, setConsent] = useState(false);
  const ask = useMutation({ mutationFn: askAlert, onSuccess: onAsked });

  // The server's refusal beside the field it concerns, or above the button.
  const failure = ask.error;
  const code = failure === null ? null : failureCode(failure);
  // A code that could not be texted is the number's problem here (the shared text is an order's).
  const undeliverable = code === 'access_code_undeliverable';
  const serverMobile =
    undeliverable || (code === 'invalid_field' && failure instanceof ApiFailure && failure.field === 'mobile');
  const mobileProblem = badMobile
    ? t('alert.offer.mobileError')
    : undeliverable
      ? t('alert.offer.undeliverable')
      : serverMobile
        ? errorText(failure)
        : null;
  const consentProblem = code === 'alert_consent_required' ? errorText(failure) : null;
  const otherProblem = failure !== null && !serverMobile && consentProblem === null;

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!consent || ask.isPending) return;
    const number = mobile.replace(/[\s-]/g, '');
    if (channel === 'sms' && !THAI_MOBILE.test(number)) {
      setBadMobile(true);
      return;
    }
    setBadMobile(false);
    ask.mutate({ eventKey, channel, mobile: number, consent, file: selfie });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="alert-form">
      <p>{t('alert.offer.intro')}</p>
      <fieldset className="alert-channels">
        <legend>{t('alert.offer.channel')}</legend>
        <div className="row">
          {channels.map((c) => (
            <button
              key={c}
              type="button"
              className={`btn alert-channel ${c === 'line' ? 'btn-line' : 'btn-secondary'}`}
              aria-pressed={channel === c}
              data-testid={`alert-channel-${c}`}
              onClick={() => {
                setChannel(c);
                ask.reset();
              }}
            >
              {t(c === 'line' ? 'alert.offer.line' : 'alert.offer.sms')}
            </button>
          ))}
        </div>
      </fieldset>
      {channel === 'sms' && (
        <InputField
          id={`${id}-mobile`}
          label={t('alert.offer.mobile')}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder={t('alert.offer.mobileHint')}
          value={mobile}
          onChange={(e) => {
            setMobile(e.target.value);
            setBadMobile(false);
            ask.reset();
          }}
          aria-invalid={mobileProblem !== null || undefined}
          aria-describedby={mobileProblem === null ? undefined : `${id}-mobile-error`}
          data-testid="alert-mobile"
        >
          {mobileProblem !== null && (
            <p className="field-error" id={`${id}-mobile-error`} role="alert" data-testid="alert-mobile-error">
              {mobileProblem}
            </p>
          )}
        </InputField>
      )}
      <div className="field">
        <label className="alert-consent">
          <input
            type="checkbox"
            checked={consent}
            onChange={(e) => {
              setConsent(e.target.checked);
              ask.reset();
            }}
            aria-invalid={consentProblem !== null || undefined}
            aria-describedby={consentProblem === null ? undefined : `${id}-consent-error`}
            data-testid="alert-consent"
          />
          <span>{t('alert.offer.consent')}</span>
        </label>
        {consentProblem !== null && (
          <p className="field-error" id={`${id}-consent-error`} role="alert" data-testid="alert-consent-error">
            {consentProblem}
          </p>
        )}
      </div>
      {otherProblem && <ErrorAlert error={failure} testId="alert-error" />}
      <button type="submit" className="btn btn-primary btn-block" data-testid="alert-submit" disabled={!consent || ask.isPending}>
        {ask.isPending && <Spinner inline label={t('alert.offer.sending')} />}
        {t(channel === 'line' ? 'alert.offer.submitLine' : 'alert.offer.submitSms')}
      </button>
    </form>
  );
}

type CodeProps = { asked: AlertAsked; onOn: (alert: AlertBody) => void; onAgain: () => void };

/** The code texted to the number: it turns the SMS alert on. */
function AlertCode({ asked, onOn, onAgain }: CodeProps) {
  const t = useT();
  const errorText = useErrorText();
  const id = useId();
  const [code, setCode] = useState('');
  const [badFormat, setBadFormat] = useState(false);
  const confirm = useMutation({
    mutationFn: (value: string) => confirmAlert(asked.alert_id, value),
    onSuccess: (answer) => onOn(answer.alert),
  });
  const failure = confirm.error;
  const failed = failure === null ? null : failureCode(failure);
  // No code is pending any more (too many wrong, or the alert lapsed): only asking again helps.
  const over = failed === 'access_code_expired' || failed === 'alert_not_found';
  const fieldProblem = badFormat ? t('alert.code.format') : failed === 'access_code_invalid' ? errorText(failure) : null;
  const minutes = Math.max(1, Math.ceil(asked.expires_in / 60));

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (confirm.isPending || over) return;
    if (!CODE.test(code)) {
      setBadFormat(true);
      return;
    }
    setBadFormat(false);
    confirm.mutate(code);
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <p role="status" data-testid="alert-code-sent">
        {t('alert.code.sent', { contact: asked.contact ?? '', minutes })}
      </p>
      <InputField
        id={`${id}-code`}
        label={t('alert.code.label')}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={ACCESS_CODE_LENGTH}
        value={code}
        onChange={(e) => {
          setCode(e.target.value.replace(/\D/g, ''));
          setBadFormat(false);
          if (!over) confirm.reset();
        }}
        aria-invalid={fieldProblem !== null || undefined}
        aria-describedby={fieldProblem === null ? undefined : `${id}-code-error`}
        data-testid="alert-code"
      >
        {fieldProblem !== null && (
          <p className="field-error" id={`${id}-code-error`} role="alert" data-testid="alert-code-error">
            {fieldProblem}
          </p>
        )}
      </InputField>
      {failure !== null && fieldProblem === null && <ErrorAlert error={failure} testId="alert-error" />}
      {over ? (
        <button type="button" className="btn btn-secondary btn-block" data-testid="alert-again" onClick={onAgain}>
          {t('retry')}
        </button>
      ) : (
        <button type="submit" className="btn btn-primary btn-block" data-testid="alert-confirm" disabled={confirm.isPending}>
          {confirm.isPending && <Spinner inline label={t('alert.offer.sending')} />}
          {t('alert.code.confirm')}
        </button>
      )}
    </form>
  );
}

/** The SMS alert is on, and until when at the latest. */
function AlertOn({ alert }: { alert: AlertBody }) {
  const t = useT();
  const [lang] = useLanguage();
  return (
    <div className="alert alert-info stack" role="status" data-testid="alert-on">
      <strong>{t('alert.on.sms')}</strong>
      <div>{t('alert.on.until', { date: formatBangkokDayOf(alert.expires_at, lang) })}</div>
    </div>
  );
}
