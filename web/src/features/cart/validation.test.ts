//! The order forms' rules and the channels the paid form offers, checked
//! without rendering.

import { parseChannels } from './api';
import { isEmail, mobileRule, paidChannels, validateContact } from './validation';

describe('mobile rules', () => {
  it('takes 5 to 15 digits as typed on the standard paid form only', () => {
    expect(mobileRule('standard', 'paid')).toEqual({ min: 5, max: 15, stripOnInput: false });
    expect(mobileRule('standard', 'free')).toEqual({ min: 10, max: 10, stripOnInput: true });
    expect(mobileRule('wholesale', 'paid')).toEqual({ min: 10, max: 10, stripOnInput: true });
  });

  it('names the first problem of a mobile number', () => {
    const standard = mobileRule('standard', 'paid');
    const exact = mobileRule('wholesale', 'paid');
    const mobileKey = (mobile: string, rule = standard) =>
      validateContact({ mobile, email: '', channel: 'PP' }, rule, 'paid').mobile;
    expect(mobileKey('')).toEqual({ key: 'cart.error.mobileRequired' });
    expect(mobileKey('08-123')).toEqual({ key: 'cart.error.mobileDigits' });
    expect(mobileKey('๐๘๑๒๓')).toEqual({ key: 'cart.error.mobileDigits' });
    expect(mobileKey('1234')).toEqual({ key: 'cart.error.mobileRange', vars: { min: 5, max: 15 } });
    expect(mobileKey('1234567890123456')).toMatchObject({ key: 'cart.error.mobileRange' });
    expect(mobileKey('12345')).toBeUndefined();
    expect(mobileKey('123456789012345')).toBeUndefined();
    expect(mobileKey('081234567', exact)).toEqual({ key: 'cart.error.mobileExact', vars: { length: 10 } });
    expect(mobileKey('08123456789', exact)).toMatchObject({ key: 'cart.error.mobileExact' });
    expect(mobileKey('0812345678', exact)).toBeUndefined();
  });
});

describe('e-mail', () => {
  it('accepts plain addresses and refuses what the server refuses', () => {
    for (const good of ['a@b.co', 'runner.one+race@example.co.th', 'runner@ตัวอย่าง.ไทย', "o'brien/x=y@mail.example.com"]) {
      expect(isEmail(good)).toBe(true);
    }
    for (const bad of [
      'a',
      'a@b',
      '@b.co',
      'a@.co',
      'a@b.c',
      'a b@c.co',
      'a@@b.co',
      'a@b..co',
      '.a@b.co',
      'a..b@c.co',
      'a@-b.co',
      'a@b.123',
      'a<b>@c.co',
      'นักวิ่ง@ตัวอย่าง.ไทย',
      'run\u0007ner@example.com',
      'a@b_c.co',
    ]) {
      expect(isEmail(bad)).toBe(false);
    }
  });

  it('is optional, and checked once trimmed', () => {
    const rule = mobileRule('standard', 'paid');
    expect(validateContact({ mobile: '0812345678', email: '', channel: 'PP' }, rule, 'paid')).toEqual({});
    expect(validateContact({ mobile: '0812345678', email: ' a@b.co ', channel: 'PP' }, rule, 'paid')).toEqual({});
    expect(validateContact({ mobile: '0812345678', email: 'a@b', channel: 'PP' }, rule, 'paid').email).toEqual({
      key: 'cart.error.email',
    });
  });
});

describe('payment method', () => {
  it('is required on the paid form only', () => {
    const rule = mobileRule('standard', 'free');
    expect(validateContact({ mobile: '0812345678', email: '', channel: '' }, rule, 'free')).toEqual({});
    expect(validateContact({ mobile: '0812345678', email: '', channel: '' }, rule, 'paid').payment).toEqual({
      key: 'cart.error.payment',
    });
  });

  it('offers approval by the admin in the wholesale cart only', () => {
    expect(paidChannels('standard', ['PP', 'CC'])).toEqual(['PP', 'CC']);
    expect(paidChannels('wholesale', ['PP', 'CC'])).toEqual(['PP', 'CC', 'AM']);
  });

  it('offers only the channels the gateway takes, and no card while they are unknown', () => {
    expect(paidChannels('standard', ['PP'])).toEqual(['PP']);
    expect(paidChannels('wholesale', ['PP'])).toEqual(['PP', 'AM']);
    expect(paidChannels('standard', ['CC', 'PP'])).toEqual(['PP', 'CC']);
    expect(paidChannels('standard', undefined)).toEqual(['PP']);
    expect(paidChannels('wholesale', undefined)).toEqual(['PP', 'AM']);
    expect(paidChannels('standard', [])).toEqual(['PP']);
  });

  it('reads the PAYMENT_CHANNELS setting', () => {
    expect(parseChannels('PP,CC')).toEqual(['PP', 'CC']);
    expect(parseChannels('PP')).toEqual(['PP']);
    expect(parseChannels(' pp , CC ,PP,AM,XX')).toEqual(['PP', 'CC']);
    expect(parseChannels('')).toEqual([]);
  });
});
