//! Each cart's all-photos flag and price in browser storage, as the shop stores them: the bare
//! strings YES / NO, the standard cart under its original keys and the wholesale cart under its
//! own, and the JSON-quoted flag of earlier versions read as its raw value.

import { act, renderHook } from '@testing-library/react';
import { readDeal, setDeal, useDeal } from './cart';

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
