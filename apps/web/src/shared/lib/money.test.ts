import { describe, expect, it } from 'vitest';
import { formatMoney, toMajorUnits, toMinorUnits } from './money';

describe('money', () => {
  it('formats minor units in the currency', () => {
    expect(formatMoney(4990, 'EUR')).toBe('€49.90');
    expect(formatMoney(4990, 'CHF')).toMatch(/^CHF\s49\.90$/);
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    expect(formatMoney(null, 'EUR')).toBe('—');
  });

  it('turns typed amounts into minor units without floating-point drift', () => {
    expect(toMinorUnits('49.90', 'EUR')).toBe(4990);
    expect(toMinorUnits('0.29', 'EUR')).toBe(29);
    expect(toMinorUnits('19,99', 'EUR')).toBe(1999);
    expect(toMinorUnits(12, 'EUR')).toBe(1200);
    expect(toMinorUnits('500', 'JPY')).toBe(500);
    expect(toMinorUnits('1.234', 'EUR')).toBeNull();
    expect(toMinorUnits('-5', 'EUR')).toBeNull();
    expect(toMinorUnits('abc', 'EUR')).toBeNull();
    expect(toMajorUnits(4990, 'EUR')).toBe(49.9);
  });
});
