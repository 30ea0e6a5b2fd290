//! The order page's pure rules: JSON lists, polling, addresses, satang, find-order checks.

import type { InquiryResponse } from '@/api/types';
import { checkFind } from './findOrder';
import {
  parseOrderImages,
  parsePaidImages,
  sandboxToken,
  shouldPoll,
  shownVariants,
  toSatang,
  withQuery,
} from './orderData';
import { zipFileName } from './zipDownload';

const base = {
  payment_status: 'PAID',
  payment_channel: 'PP',
  is_original_image_created: 'Y',
  is_logo_image_created: 'Y',
  storage_expired: 'N',
} as InquiryResponse;

describe('order data', () => {
  it('reads the JSON lists defensively', () => {
    expect(parseOrderImages('[{"thumbnail_file_name":"a.jpg","original_file_name":"A.jpg"},null,3]')).toEqual([
      { thumbnail_file_name: 'a.jpg', original_file_name: 'A.jpg' },
    ]);
    expect(parseOrderImages('{oops')).toEqual([]);
    expect(parseOrderImages('{"a":1}')).toEqual([]);
    expect(parsePaidImages('')).toEqual([]);
    expect(parsePaidImages('[{"image":"/x?s=1","id":5,"photographer_id":2}]')).toEqual([
      { id: '5', image: '/x?s=1', image_logo: '', image_frame: '', image_thumbnail: '', original_file_name: '', photographer_id: '2' },
    ]);
    // A free download of a framed event gives its framed copy only.
    expect(parsePaidImages('[{"image":"","image_frame":"/f?s=1","id":6}]')).toHaveLength(1);
    expect(parsePaidImages('[{"image":"","image_frame":"","id":6}]')).toEqual([]);
  });

  it('offers the files the server says the order gives, never the logo copy of a FREE order', () => {
    expect(shownVariants(base)).toEqual(['original', 'logo']);
    expect(shownVariants({ ...base, variants: ['original', 'logo', 'frame'] })).toEqual(['original', 'logo', 'frame']);
    expect(shownVariants({ ...base, payment_channel: 'FREE', variants: ['original', 'logo', 'frame'] })).toEqual([
      'original',
      'frame',
    ]);
    expect(shownVariants({ ...base, payment_channel: 'FREE', variants: ['frame'] })).toEqual(['frame']);
    // A file this page does not know is left out.
    expect(shownVariants({ ...base, variants: ['original', 'poster'] })).toEqual(['original']);
    expect(['original', 'logo', 'frame'].map((v) => zipFileName('u1', v as 'original'))).toEqual([
      'u1.zip',
      'u1-logo.zip',
      'u1-frame.zip',
    ]);
  });

  it('polls while unpaid and while photos are being made', () => {
    expect(shouldPoll(undefined)).toBe(false);
    expect(shouldPoll({ ...base, payment_status: 'INITIAL' })).toBe(true);
    expect(shouldPoll(base)).toBe(false);
    expect(shouldPoll({ ...base, is_logo_image_created: 'N' })).toBe(true);
    expect(shouldPoll({ ...base, payment_channel: 'FREE', is_logo_image_created: 'N' })).toBe(false);
    expect(shouldPoll({ ...base, is_original_image_created: 'N', payment_channel: 'FREE' })).toBe(true);
    expect(shouldPoll({ ...base, payment_status: 'EXPIRED' })).toBe(false);
    expect(shouldPoll({ ...base, is_logo_image_created: 'N', storage_expired: 'Y' })).toBe(false);
    // Framed copies the order gives are waited for too.
    const framed = { ...base, variants: ['original', 'logo', 'frame'] };
    expect(shouldPoll({ ...framed, is_frame_image_created: 'N' })).toBe(true);
    expect(shouldPoll({ ...framed, is_frame_image_created: 'Y' })).toBe(false);
    // An order of a certificate alone has no photos to wait for; only its addresses, if missing.
    const certificate = { bib: '42', price: 49, image_url: '/c/image', print_url: '/c/print' };
    const alone = { ...base, image_length: 0, is_original_image_created: 'N' as const, certificate };
    expect(shouldPoll(alone)).toBe(false);
    expect(shouldPoll({ ...alone, certificate: { ...certificate, image_url: null, print_url: null } })).toBe(true);
    expect(shouldPoll({ ...base, image_length: 2, is_original_image_created: 'N', certificate })).toBe(true);
  });

  it('appends a query parameter to addresses with or without a query string', () => {
    expect(withQuery('/p/1?exp=2&sig=a', 'openExternalBrowser', '1')).toBe('/p/1?exp=2&sig=a&openExternalBrowser=1');
    expect(withQuery('/p/1', 'openExternalBrowser', '1')).toBe('/p/1?openExternalBrowser=1');
    expect(withQuery('/p/1?a=1#top', 'openExternalBrowser', '1')).toBe('/p/1?a=1&openExternalBrowser=1#top');
    expect(withQuery('/p/1?openExternalBrowser=1', 'openExternalBrowser', '1')).toBe('/p/1?openExternalBrowser=1');
  });

  it('turns baht into whole satang', () => {
    expect(toSatang(210)).toBe(21000);
    expect(toSatang(105.5)).toBe(10550);
    expect(toSatang(0.29)).toBe(29);
    expect(toSatang(1234.57)).toBe(123457);
  });

  it('makes sandbox card tokens', () => {
    expect(sandboxToken()).toMatch(/^tokn_sandbox_[0-9a-f]{24}$/);
  });

  it('checks the find-order form', () => {
    expect(checkFind(null, '0812345678')).toMatchObject({ ok: false, error: { key: 'order.find.err.filter' } });
    expect(checkFind('mobile', '  ')).toMatchObject({ ok: false, error: { key: 'order.find.err.required' } });
    expect(checkFind('mobile', '08123456a8')).toMatchObject({ ok: false });
    expect(checkFind('mobile', '1234567890123456')).toMatchObject({ ok: false });
    expect(checkFind('mobile', ' 123456789012345 ')).toEqual({
      ok: true,
      request: { filter_type: 'mobile', txt_search: '123456789012345' },
    });
    expect(checkFind('receipt', 'AB12C')).toMatchObject({ ok: false, error: { key: 'order.find.err.receipt' } });
    expect(checkFind('receipt', 'ab-1')).toMatchObject({ ok: false });
    expect(checkFind('receipt', 'ab12')).toEqual({ ok: true, request: { filter_type: 'payment_ref', txt_search: 'ab12' } });
  });
});
