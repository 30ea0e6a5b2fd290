//! Bangkok dates in both languages, whatever form the server wrote them in.

import { formatBangkokDate, formatBangkokDateTime, formatBangkokDayOf } from './dates';

describe('dates', () => {
  it('shows instants in Bangkok time, with the Buddhist year in Thai', () => {
    expect(formatBangkokDateTime('2026-12-01T02:30:00Z', 'en')).toBe('1 Dec 2026, 09:30');
    expect(formatBangkokDateTime('2026-12-01T09:30:00+07:00', 'th')).toContain('2569');
    expect(formatBangkokDateTime('2026-12-01 09:30', 'en')).toBe('1 Dec 2026, 09:30');
    expect(formatBangkokDateTime('2026-12-01 09:30:15', 'en')).toBe('1 Dec 2026, 09:30');
  });

  it('shows calendar days as they are, and unreadable text as sent', () => {
    expect(formatBangkokDate('2026-11-30', 'en')).toBe('30 Nov 2026');
    expect(formatBangkokDate('2026-11-30', 'th')).toContain('2569');
    expect(formatBangkokDate('soon', 'en')).toBe('soon');
    expect(formatBangkokDateTime('', 'th')).toBe('');
  });

  it('shows the Bangkok day of an instant', () => {
    // 20:00 UTC is already the next day in Bangkok.
    expect(formatBangkokDayOf('2026-11-30T20:00:00Z', 'en')).toBe('1 Dec 2026');
    expect(formatBangkokDayOf('2026-11-30T20:00:00Z', 'th')).toContain('2569');
    expect(formatBangkokDayOf('later', 'en')).toBe('later');
  });
});
