//! The settings page's model: which console settings it shows and in which group, what the
//! operator's edits are, the `changes` a save sends (only what really changed), the server's
//! field problems by key, and the PNG/JPEG check a logo passes before it is sent.

import type { components } from '@/api/schema';

export type Setting = components['schemas']['SettingBody'];
export type Settings = components['schemas']['SettingsBody'];
export type FieldProblem = components['schemas']['FieldProblem'];

/** The keys the console changes (the server's `CONSOLE_SETTINGS`), in the page's order. */
export const SETTING_KEYS = [
  'payments.gateway',
  'payments.promptpay_id',
  'payments.gbp.token',
  'payments.gbp.secret_key',
  'payments.opn.public_key',
  'payments.opn.secret_key',
  'payments.opn.webhook_secret',
  'notify.smtp.host',
  'notify.smtp.port',
  'notify.smtp.username',
  'notify.smtp.password',
  'notify.smtp.from',
  'notify.smtp.tls',
  'sms.provider',
  'sms.key',
  'sms.secret',
  'sms.sender',
  'line.login_channel_id',
  'line.login_channel_secret',
  'line.channel_access_token',
  'messages.daily_cap.email',
  'messages.daily_cap.sms',
  'messages.daily_cap.line',
  'orders.retention_days',
  'alerts.days',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const isSettingKey = (key: string): key is SettingKey => (SETTING_KEYS as readonly string[]).includes(key);

/** How a setting is typed in. Whether it is a secret comes from the server (`secret`). */
export type Control = 'text' | 'number' | 'gateway' | 'tls' | 'smsProvider';

export type GroupId = 'payments' | 'email' | 'sms' | 'line' | 'caps' | 'retention';
export type FieldSpec = { key: SettingKey; control: Control };

export const GROUPS: readonly { id: GroupId; fields: readonly FieldSpec[] }[] = [
  {
    id: 'payments',
    fields: [
      { key: 'payments.gateway', control: 'gateway' },
      { key: 'payments.promptpay_id', control: 'text' },
      { key: 'payments.gbp.token', control: 'text' },
      { key: 'payments.gbp.secret_key', control: 'text' },
      { key: 'payments.opn.public_key', control: 'text' },
      { key: 'payments.opn.secret_key', control: 'text' },
      { key: 'payments.opn.webhook_secret', control: 'text' },
    ],
  },
  {
    id: 'email',
    fields: [
      { key: 'notify.smtp.host', control: 'text' },
      { key: 'notify.smtp.port', control: 'number' },
      { key: 'notify.smtp.username', control: 'text' },
      { key: 'notify.smtp.password', control: 'text' },
      { key: 'notify.smtp.from', control: 'text' },
      { key: 'notify.smtp.tls', control: 'tls' },
    ],
  },
  {
    id: 'sms',
    fields: [
      { key: 'sms.provider', control: 'smsProvider' },
      { key: 'sms.key', control: 'text' },
      { key: 'sms.secret', control: 'text' },
      { key: 'sms.sender', control: 'text' },
    ],
  },
  {
    id: 'line',
    fields: [
      { key: 'line.login_channel_id', control: 'text' },
      { key: 'line.login_channel_secret', control: 'text' },
      { key: 'line.channel_access_token', control: 'text' },
    ],
  },
  {
    id: 'caps',
    fields: [
      { key: 'messages.daily_cap.email', control: 'number' },
      { key: 'messages.daily_cap.sms', control: 'number' },
      { key: 'messages.daily_cap.line', control: 'number' },
    ],
  },
  {
    id: 'retention',
    fields: [
      { key: 'orders.retention_days', control: 'number' },
      { key: 'alerts.days', control: 'number' },
    ],
  },
];

/** The ways an SMTP connection is secured (`notify.smtp.tls`). */
export const TLS_MODES = ['starttls', 'tls', 'none'] as const;
export type TlsMode = (typeof TLS_MODES)[number];
export const isTlsMode = (v: string): v is TlsMode => (TLS_MODES as readonly string[]).includes(v);

/** The SMS providers the server speaks to (`sms.provider`). */
export const SMS_PROVIDERS = ['thaibulksms'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];
export const isSmsProvider = (v: string): v is SmsProvider => (SMS_PROVIDERS as readonly string[]).includes(v);

/** What the operator did to one setting: typed a value, or asked for the server's
 * configuration again (sent as `null`; for a secret this is "clear"). */
export type Edit = { kind: 'text'; text: string } | { kind: 'reset' };
export type Edits = Partial<Record<SettingKey, Edit>>;

/** Key → new value, `null` for "use the server's configuration". */
export type Changes = Record<string, string | null>;

export function settingOf(settings: Settings, key: SettingKey): Setting | undefined {
  return settings.settings.find((s) => s.key === key);
}

/** What the input shows: a secret starts empty (it is never sent to the browser), any
 * other setting starts with the value in force. */
export function shownText(setting: Setting, edit: Edit | undefined): string {
  if (edit?.kind === 'text') return edit.text;
  return setting.secret ? '' : (setting.value ?? '');
}

/** The one change an edit makes, or `undefined` when it changes nothing: an empty secret
 * keeps the stored one, and a value typed back to the one in force is no change. The
 * server trims values and reads an empty one as `null`, so the page does the same. */
export function changeOf(setting: Setting, edit: Edit | undefined): string | null | undefined {
  if (!edit) return undefined;
  if (edit.kind === 'reset') return null;
  const text = edit.text.trim();
  if (setting.secret) return text === '' ? undefined : text;
  if (text === (setting.value ?? '').trim()) return undefined;
  return text === '' ? null : text;
}

/** The body's `changes`: only the keys whose edit really changes something. */
export function changesFrom(settings: Settings, edits: Edits): Changes {
  const changes: Changes = {};
  for (const key of SETTING_KEYS) {
    const setting = settingOf(settings, key);
    if (!setting) continue;
    const change = changeOf(setting, edits[key]);
    if (change !== undefined) changes[key] = change;
  }
  return changes;
}

export function problemsFor(problems: readonly FieldProblem[], key: string): FieldProblem[] {
  return problems.filter((p) => p.field === key);
}

/** Logos are small pictures: the server takes up to 2 MB (`MAX_LOGO_BYTES` in
 * crates/server/src/api/admin/settings.rs). */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

export type ImageKind = 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

/** What the file's first bytes say it is, as the server sniffs it (a name or a browser's
 * type can lie); `null` for anything but PNG or JPEG. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const starts = (signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts(PNG_SIGNATURE)) return 'image/png';
  if (starts(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}
