//! Opening a found order with a one-time code, when find-order answers `code_required` Y:
//! knowing a mobile number must not open someone else's order. The row names the order only
//! by an opaque `lookup`; a code goes to the order's own (masked) contact, and the code opens
//! the order's page. Without a contact the order opens only from its link or through the shop.

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiFailure } from '@/api/client';
import type { FoundOrderRow } from '@/api/types';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useErrorText } from '@/i18n/errors';
import { ACCESS_CODE_LENGTH, CONTACT } from '@/lib/constants';
import { openFoundOrder, sendOrderCode } from './api';
import { useT } from './messages';

type Sent = { contact: string; minutes: number };

const codeOf = (e: unknown) => (e instanceof ApiFailure ? e.code : null);

export function OrderCodeAccess({ row }: { row: FoundOrderRow }) {
  const t = useT();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const id = useId();
  const [sent, setSent] = useState<Sent | null>(null);
  // Once a code went out (or expired), asking again reads "send a new code".
  const [askedBefore, setAskedBefore] = useState(false);
  const [code, setCode] = useState('');
  const [badFormat, setBadFormat] = useState(false);
  // The server found no contact after all: the same explanation as a row without one.
  const [undeliverable, setUndeliverable] = useState(row.contact === '');

  const open = useMutation({
    mutationFn: (value: string) => openFoundOrder(row.lookup, value),
    onSuccess: (answer) => void navigate(`/download/${answer.order_id}`),
    onError: (e) => {
      // No code is pending any more (expired, or too many wrong tries): only a new one helps.
      if (codeOf(e) === 'access_code_expired') {
        setSent(null);
        setCode('');
      }
    },
  });

  const send = useMutation({
    mutationFn: () => sendOrderCode(row.lookup),
    onSuccess: (answer) => {
      setSent({ contact: answer.contact || row.contact, minutes: Math.max(1, Math.ceil(answer.expires_in_secs / 60)) });
      setAskedBefore(true);
      setCode('');
      setBadFormat(false);
      open.reset();
    },
    onError: (e) => {
      if (codeOf(e) === 'access_code_undeliverable') setUndeliverable(true);
    },
  });

  if (undeliverable) {
    return (
      <p className="small find-code-none" data-testid="find-code-none">
        {t('order.find.code.noContact', { line: CONTACT.line })}
      </p>
    );
  }

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (open.isPending) return;
    if (!new RegExp(`^\\d{${ACCESS_CODE_LENGTH}}$`).test(code)) {
      setBadFormat(true);
      return;
    }
    setBadFormat(false);
    open.mutate(code);
  };

  const sendButton = (
    <button
      type="button"
      className={`btn btn-small ${sent ? 'btn-secondary' : 'btn-primary'}`}
      onClick={() => send.mutate()}
      disabled={send.isPending}
      data-testid={sent ? 'find-resend-code' : 'find-send-code'}
    >
      {send.isPending && <Spinner inline label={t('order.find.code.sending')} />}
      {t(askedBefore ? 'order.find.code.sendAgain' : 'order.find.code.send')}
    </button>
  );

  const inputId = `${id}-code`;
  const errorId = `${id}-error`;
  // A wrong code belongs to the field; other failures (expired, too many requests) to the row.
  const openError = open.isError ? errorText(open.error) : null;
  const fieldError = badFormat ? t('order.find.code.format') : codeOf(open.error) === 'access_code_invalid' ? openError : null;
  const rowError = send.isError ? errorText(send.error) : fieldError === null ? openError : null;

  return (
    <div className="find-code stack" data-testid="find-code">
      {sent === null ? (
        <>
          <p className="small" data-testid="find-code-contact">
            {t('order.find.code.to', { contact: row.contact })}
          </p>
          <p>{sendButton}</p>
        </>
      ) : (
        <form className="stack" onSubmit={submit} noValidate>
          <p className="small" role="status" data-testid="find-code-sent">
            {t('order.find.code.sent', { contact: sent.contact, minutes: sent.minutes })}
          </p>
          <InputField
            id={inputId}
            label={t('order.find.code.label')}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={ACCESS_CODE_LENGTH}
            value={code}
            // Digits only: a code pasted with spaces still fits.
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, ACCESS_CODE_LENGTH))}
            aria-invalid={fieldError !== null}
            aria-describedby={fieldError !== null ? errorId : undefined}
            data-testid="find-code-input"
          >
            {fieldError !== null && (
              <p id={errorId} className="field-error" role="alert" data-testid="find-code-field-error">
                {fieldError}
              </p>
            )}
          </InputField>
          <div className="row">
            <button type="submit" className="btn btn-primary btn-small" disabled={open.isPending} data-testid="find-open-code">
              {open.isPending && <Spinner inline label={t('order.find.code.opening')} />}
              {t('order.find.code.open')}
            </button>
            {sendButton}
          </div>
        </form>
      )}
      {rowError !== null && (
        <p className="field-error" role="alert" data-testid="find-code-error">
          {rowError}
        </p>
      )}
    </div>
  );
}
