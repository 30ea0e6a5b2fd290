//! "Send a test message": one channel (e-mail, SMS, LINE) and an address the operator
//! types; the server sends a test message through the channel's provider and answers
//! whether the provider took it, or the channel only logs, or its cap for the day is
//! reached. A provider's refusal is shown as the server words it.

import { useMutation } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { InputField } from '@/components/InputField';
import { useDictionary } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { sendTrial } from './api';
import { settingsMessages } from './messages';

const CHANNELS = ['email', 'sms', 'line'] as const;
const OUTCOMES = {
  sent: 'adminSettings.trial.sent',
  logged: 'adminSettings.trial.logged',
  capped: 'adminSettings.trial.capped',
} as const;

export function TrialSection() {
  const t = useDictionary(settingsMessages);
  const errorText = useErrorText();
  const [channel, setChannel] = useState<(typeof CHANNELS)[number]>('email');
  const [to, setTo] = useState('');
  const trial = useMutation({ mutationFn: () => sendTrial(channel, to.trim()) });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    trial.mutate();
  };
  const outcome = trial.data?.outcome;
  return (
    <form className="card admin-settings-group" aria-labelledby="admin-settings-trial-title" onSubmit={submit} data-testid="trial-form">
      <h2 id="admin-settings-trial-title">{t('adminSettings.trial.title')}</h2>
      <p className="admin-settings-help">{t('adminSettings.trial.help')}</p>
      <div className="field admin-settings-field">
        <label htmlFor="admin-settings-trial-channel">{t('adminSettings.trial.channel')}</label>
        <select
          id="admin-settings-trial-channel"
          value={channel}
          onChange={(e) => setChannel(CHANNELS.find((c) => c === e.currentTarget.value) ?? 'email')}
          data-testid="trial-channel"
        >
          <option value="email">{t('adminSettings.group.email')}</option>
          <option value="sms">{t('adminSettings.group.sms')}</option>
          <option value="line">LINE</option>
        </select>
      </div>
      <InputField
        id="admin-settings-trial-to"
        label={t('adminSettings.trial.to')}
        fieldClassName="admin-settings-field"
        value={to}
        autoComplete="off"
        onChange={(e) => setTo(e.currentTarget.value)}
        data-testid="trial-to"
      />
      <p>
        <button type="submit" className="btn btn-secondary" disabled={trial.isPending || to.trim() === ''} data-testid="trial-send">
          {t('adminSettings.trial.send')}
        </button>
      </p>
      {outcome !== undefined && outcome in OUTCOMES && (
        <p className={`alert ${outcome === 'sent' ? 'alert-success' : 'alert-warning'}`} role="status" data-testid="trial-outcome">
          {t(OUTCOMES[outcome as keyof typeof OUTCOMES])}
        </p>
      )}
      {trial.isError && (
        <p className="alert alert-danger" role="alert" data-testid="trial-error">
          {errorText(trial.error)}
        </p>
      )}
    </form>
  );
}
