//! Each cart's all-photos flag and price in browser storage, as the shop stores them: the bare
//! strings YES / NO, the standard cart under its original keys and the wholesale cart under its
//! own, and the JSON-quoted flag of earlier versions read as its raw value. The standard cart's
//! finisher certificate: one at most, another runner's replacing it, anything malformed read as
//! none, followed where it is shown, and its event counted among the cart's.

import { act, renderHook } from '@testing-library/react';
import {
  cartEvents,
  clearCartCertificate,
  isCertificateOf,
  readCartCertificate,
  readDeal,
  setCartCertificate,
  setDeal,
  useCartCertificate,
  useDeal,
  type CartItem,
} from './cart';

describe('all-photos flag', () => {
  it('is stored raw under each cart’s own keys', () => {
    setDeal('standard', 'YES', 999);
    expect(localStorage.getItem('_event_can_mhao')).toBe('YES');
    expect(localStorage.getItem('_mhao_price')).toBe('999');
    expect(localStorage.getItem('_event_can_mhao_wholesale')).toBeNull();

    setDeal('wholesale', 'YES', 1500.5);
    expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('YES');
    expect(localStorage.getItem('_mhao_price_wholesale')).toBe('1500.5');

    setDeal('wholesale', 'NO');
    expect(localStorage.getItem('_event_can_mhao_wholesale')).toBe('NO');
    // A flag alone leaves the price; no price removes it.
    expect(localStorage.getItem('_mhao_price_wholesale')).toBe('1500.5');
    setDeal('wholesale', 'YES', null);
    expect(localStorage.getItem('_mhao_price_wholesale')).toBeNull();

    expect(readDeal('standard')).toBe('YES');
    expect(readDeal('wholesale')).toBe('YES');
  });

  it('reads an earlier JSON-quoted value as its raw value, and anything else as NO', () => {
    localStorage.setItem('_event_can_mhao', '"YES"');
    expect(readDeal('standard')).toBe('YES');
    localStorage.setItem('_event_can_mhao', '"NO"');
    expect(readDeal('standard')).toBe('NO');
    localStorage.setItem('_event_can_mhao', 'yes please');
    expect(readDeal('standard')).toBe('NO');
    expect(readDeal('wholesale')).toBe('NO');
  });

  it('follows changes of its own cart only', () => {
    localStorage.setItem('_event_can_mhao_wholesale', '"YES"');
    const standard = renderHook(() => useDeal('standard'));
    const wholesale = renderHook(() => useDeal('wholesale'));
    expect(standard.result.current).toBe('NO');
    expect(wholesale.result.current).toBe('YES');
    act(() => setDeal('standard', 'YES'));
    expect(standard.result.current).toBe('YES');
    expect(wholesale.result.current).toBe('YES');
    act(() => setDeal('wholesale', 'NO'));
    expect(standard.result.current).toBe('YES');
    expect(wholesale.result.current).toBe('NO');
  });
});

describe('certificate line', () => {
  const somchai = { event_key: 'bkk-run', bib: '42', name: 'Somchai Jaidee' };

  it('is stored under its own key, one at most: another runner’s replaces it', () => {
    expect(readCartCertificate()).toBeNull();
    setCartCertificate(somchai);
    expect(JSON.parse(localStorage.getItem('cart_certificate') ?? 'null')).toEqual(somchai);
    expect(readCartCertificate()).toEqual(somchai);
    expect(isCertificateOf(readCartCertificate(), 'bkk-run', '42')).toBe(true);
    expect(isCertificateOf(readCartCertificate(), 'bkk-run', '7')).toBe(false);
    expect(isCertificateOf(readCartCertificate(), 'other-run', '42')).toBe(false);

    setCartCertificate({ event_key: 'bkk-run', bib: '7', name: 'Anan' });
    expect(readCartCertificate()).toEqual({ event_key: 'bkk-run', bib: '7', name: 'Anan' });
    // The photos' carts are other keys: untouched.
    expect(localStorage.getItem('cart')).toBeNull();
    expect(localStorage.getItem('cart_wholesale')).toBeNull();

    clearCartCertificate();
    expect(localStorage.getItem('cart_certificate')).toBeNull();
    expect(readCartCertificate()).toBeNull();
  });

  it('reads anything malformed as no certificate', () => {
    for (const stored of ['{oops', '[]', '"42"', '{"event_key":"bkk-run","name":"x"}', '{"event_key":"","bib":"42","name":"x"}', '{"event_key":"bkk-run","bib":42,"name":"x"}']) {
      localStorage.setItem('cart_certificate', stored);
      expect(readCartCertificate()).toBeNull();
    }
  });

  it('is followed where it is shown', () => {
    const shown = renderHook(() => useCartCertificate());
    expect(shown.result.current).toBeNull();
    act(() => setCartCertificate(somchai));
    expect(shown.result.current).toEqual(somchai);
    act(() => clearCartCertificate());
    expect(shown.result.current).toBeNull();
  });

  it('counts its event among the cart’s events', () => {
    const photo = (id: number, eventKey: string) => ({ id, event_key: eventKey }) as CartItem;
    expect(cartEvents([], somchai)).toEqual(['bkk-run']);
    expect(cartEvents([photo(1, 'bkk-run')], somchai)).toEqual(['bkk-run']);
    expect(cartEvents([photo(1, 'other-run')], somchai)).toEqual(['other-run', 'bkk-run']);
    expect(cartEvents([photo(1, 'other-run')])).toEqual(['other-run']);
    expect(cartEvents([], null)).toEqual([]);
  });
});
