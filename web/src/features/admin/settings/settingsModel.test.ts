//! The settings model: which edits become changes (and which change nothing), and the
//! PNG/JPEG sniffing the logo passes before it is sent.

import { changeOf, changesFrom, shownText, sniffImage, type Setting, type Settings } from './settingsModel';

const value = (v: string | null, fromConsole = false): Setting => ({
  key: 'notify.smtp.host',
  secret: false,
  value: v,
  set: v !== null,
  from_console: fromConsole,
});
const secret: Setting = { key: 'notify.smtp.password', secret: true, value: null, set: true, from_console: true };

describe('changeOf', () => {
  it('changes nothing without an edit, or with a value typed back to the one in force', () => {
    expect(changeOf(value('smtp.example.com'), undefined)).toBeUndefined();
    expect(changeOf(value('smtp.example.com'), { kind: 'text', text: ' smtp.example.com ' })).toBeUndefined();
    expect(changeOf(value(null), { kind: 'text', text: '' })).toBeUndefined();
  });

  it('sends a new value trimmed, and an emptied one as null (the server reads "" as null)', () => {
    expect(changeOf(value('a'), { kind: 'text', text: ' b ' })).toBe('b');
    expect(changeOf(value('a', true), { kind: 'text', text: '  ' })).toBeNull();
    expect(changeOf(value('a', true), { kind: 'reset' })).toBeNull();
  });

  it('keeps a secret left empty, and sends null only when cleared', () => {
    expect(changeOf(secret, { kind: 'text', text: '' })).toBeUndefined();
    expect(changeOf(secret, { kind: 'text', text: '   ' })).toBeUndefined();
    expect(changeOf(secret, { kind: 'text', text: 'pw' })).toBe('pw');
    expect(changeOf(secret, { kind: 'reset' })).toBeNull();
  });
});

describe('shownText', () => {
  it('starts a secret empty and a value with the one in force', () => {
    expect(shownText(secret, undefined)).toBe('');
    expect(shownText(value('smtp.example.com'), undefined)).toBe('smtp.example.com');
    expect(shownText(value(null), undefined)).toBe('');
    expect(shownText(value('a'), { kind: 'text', text: 'b' })).toBe('b');
  });
});

describe('changesFrom', () => {
  it('holds only the keys that change, and ignores keys the server did not list', () => {
    const settings: Settings = {
      settings: [value('smtp.example.com'), secret],
      gateways: [],
      face_models: { pair: 'yunet-sface', licence: 'MIT + Apache-2.0', commercial: true },
      sms_provider: 'log',
      shop_logo: false,
    };
    expect(
      changesFrom(settings, {
        'notify.smtp.host': { kind: 'text', text: 'smtp.example.com' },
        'notify.smtp.password': { kind: 'text', text: '' },
        'orders.retention_days': { kind: 'text', text: '30' },
      }),
    ).toEqual({});
    expect(
      changesFrom(settings, {
        'notify.smtp.host': { kind: 'text', text: 'mail.example.com' },
        'notify.smtp.password': { kind: 'reset' },
      }),
    ).toEqual({ 'notify.smtp.host': 'mail.example.com', 'notify.smtp.password': null });
  });
});

describe('sniffImage', () => {
  it('knows PNG and JPEG by their first bytes, and nothing else', () => {
    expect(sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]))).toBe('image/png');
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe1]))).toBe('image/jpeg');
    expect(sniffImage(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(sniffImage(new TextEncoder().encode('hello'))).toBeNull();
    expect(sniffImage(new Uint8Array([0x89, 0x50]))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });
});
