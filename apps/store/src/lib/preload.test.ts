import { describe, expect, it } from 'vitest';
import { dateParam, monthParam } from './preload';

describe('a day and a month asked for in the address', () => {
  const today = '2026-11-27';
  it('are taken when real, from today on, and not too far ahead', () => {
    expect(dateParam('2026-12-03', today)).toBe('2026-12-03');
    expect(dateParam('2028-02-29', today)).toBe('2028-02-29');
    expect(monthParam('2026-11', today)).toBe('2026-11');
    expect(monthParam('2031-12', today)).toBe('2031-12');
  });
  it('are ignored otherwise: impossible, past, far ahead or not a date', () => {
    for (const bad of ['2027-02-31', '2027-02-29', '2026-11-26', '9999-12-01', '2026-13-01', 'nonsense', '', null, undefined]) expect(dateParam(bad, today)).toBeNull();
    for (const bad of ['2026-10', '9999-12', '2026-13', '2026-1', null]) expect(monthParam(bad, today)).toBeNull();
  });
});
