//! One console setting: its label and badges (where the value comes from, whether a secret
//! is set, whether it is edited), the input, the actions that send `null` ("use server
//! configuration" for a value, "clear" for a secret), and the server's problems beside it.

import type { ReactNode } from 'react';
import { isPaymentGateway } from '@/api/types';
import { useDictionary } from '@/i18n';
import { settingsMessages } from './messages';
import {
  changeOf,
  isSmsProvider,
  isTlsMode,
  shownText,
  SMS_PROVIDERS,
  TLS_MODES,
  type Edit,
  type FieldProblem,
  type FieldSpec,
  type Setting,
} from './settingsModel';

export type Translate = ReturnType<typeof useDictionary<keyof typeof settingsMessages.th>>;

/** A DOM id from a setting key (`payments.gbp.token` → `setting-payments-gbp-token`). */
export const fieldId = (key: string) => `setting-${key.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

/** The contract's gateways have a name; any other the server lists is shown as it is. */
export function gatewayName(t: Translate, gateway: string): string {
  return isPaymentGateway(gateway) ? t(`adminSettings.gateway.${gateway}`) : gateway;
}

/** What new orders will use when `change` is saved for `payments.gateway`. */
export function gatewayWarning(t: Translate, change: string | null): string {
  return t('adminSettings.gateway.warning', {
    gateway: change === null ? t('adminSettings.gateway.serverConfig') : gatewayName(t, change),
  });
}

type Props = {
  spec: FieldSpec;
  setting: Setting;
  edit: Edit | undefined;
  problems: readonly FieldProblem[];
  gateways: readonly string[];
  onEdit: (edit: Edit | undefined) => void;
};

function Badge({ tone, children }: { tone: 'set' | 'unset' | 'console' | 'config' | 'changed'; children: ReactNode }) {
  return <span className={`admin-settings-badge admin-settings-badge-${tone}`}>{children}</span>;
}

export function SettingField({ spec, setting, edit, problems, gateways, onEdit }: Props) {
  const t = useDictionary(settingsMessages);
  const { key } = spec;
  const id = fieldId(key);
  const name = t(`adminSettings.field.${key}`);
  const text = shownText(setting, edit);
  const resetting = edit?.kind === 'reset';
  const change = changeOf(setting, edit);
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const invalid = problems.length > 0;
  const describedBy = invalid ? `${helpId} ${errorId}` : helpId;
  const type = (value: string) => onEdit({ kind: 'text', text: value });

  const common = {
    id,
    'data-testid': `setting-${key}`,
    disabled: resetting,
    'aria-invalid': invalid,
    'aria-describedby': describedBy,
  };

  const options = (values: readonly string[], label: (v: string) => string) => {
    // The value in force stays choosable even when it is not one the page expects.
    const all = text !== '' && !values.includes(text) ? [text, ...values] : values;
    return (
      <select {...common} value={text} onChange={(e) => type(e.target.value)}>
        {text === '' && <option value="">{t('adminSettings.notSetOption')}</option>}
        {all.map((v) => (
          <option key={v} value={v}>
            {label(v)}
          </option>
        ))}
      </select>
    );
  };

  let input: ReactNode;
  if (setting.secret) {
    input = (
      <input
        {...common}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        placeholder={setting.set ? t('adminSettings.secret.keep') : t('adminSettings.secret.empty')}
        value={text}
        onChange={(e) => type(e.target.value)}
      />
    );
  } else if (spec.control === 'gateway') {
    input = options(gateways, (g) => gatewayName(t, g));
  } else if (spec.control === 'tls') {
    input = options(TLS_MODES, (m) => (isTlsMode(m) ? t(`adminSettings.tls.${m}`) : m));
  } else if (spec.control === 'smsProvider') {
    input = options(SMS_PROVIDERS, (p) => (isSmsProvider(p) ? t(`adminSettings.smsProvider.${p}`) : p));
  } else {
    input = (
      <input
        {...common}
        type="text"
        inputMode={spec.control === 'number' ? 'numeric' : undefined}
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(e) => type(e.target.value)}
      />
    );
  }

  return (
    <div className={`field admin-settings-field${invalid ? ' admin-settings-invalid' : ''}`}>
      <div className="admin-settings-label-row">
        <label htmlFor={id}>{name}</label>
        <span className="admin-settings-badges" data-testid={`setting-badges-${key}`}>
          {setting.secret ? (
            setting.set ? (
              <Badge tone="set">{t('adminSettings.badge.set')}</Badge>
            ) : (
              <Badge tone="unset">{t('adminSettings.badge.notSet')}</Badge>
            )
          ) : (
            !setting.from_console &&
            (setting.set ? (
              <Badge tone="config">{t('adminSettings.badge.config')}</Badge>
            ) : (
              <Badge tone="unset">{t('adminSettings.badge.notSet')}</Badge>
            ))
          )}
          {setting.from_console && <Badge tone="console">{t('adminSettings.badge.console')}</Badge>}
          {change !== undefined && <Badge tone="changed">{t('adminSettings.badge.changed')}</Badge>}
        </span>
      </div>
      <code className="admin-settings-key">{key}</code>
      {input}
      <p id={helpId} className="admin-settings-help">
        {t(`adminSettings.help.${key}`)}
        {setting.secret && <> {t('adminSettings.secret.note')}</>}
      </p>
      {resetting && (
        <p className="admin-settings-pending" role="status">
          {setting.secret ? t('adminSettings.pending.clear') : t('adminSettings.pending.reset')}
        </p>
      )}
      {key === 'payments.gateway' && change !== undefined && (
        <p className="admin-settings-warning" role="note" data-testid="gateway-warning">
          {gatewayWarning(t, change)}
        </p>
      )}
      {invalid && (
        <div id={errorId} className="field-error" data-testid={`setting-error-${key}`}>
          {problems.map((p, i) => (
            <p key={i}>{p.message}</p>
          ))}
        </div>
      )}
      {(edit !== undefined || setting.from_console) && (
        <div className="admin-settings-actions">
          {setting.from_console && !resetting && (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              data-testid={setting.secret ? `setting-clear-${key}` : `setting-reset-${key}`}
              aria-label={t(setting.secret ? 'adminSettings.clear.label' : 'adminSettings.useServer.label', { name })}
              onClick={() => onEdit({ kind: 'reset' })}
            >
              {setting.secret ? t('adminSettings.clear') : t('adminSettings.useServer')}
            </button>
          )}
          {edit !== undefined && (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              data-testid={`setting-undo-${key}`}
              aria-label={t('adminSettings.undo.label', { name })}
              onClick={() => onEdit(undefined)}
            >
              {t('adminSettings.undo')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
