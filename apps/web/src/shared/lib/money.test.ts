import { describe, expect, it } from 'vitest';
import { formatMoney, toMajorText, toMajorUnits, toMinorUnits } from './money';

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

  it('uses each currency’s own minor unit (ISO 4217): JPY none, KWD three', () => {
    expect(formatMoney(1200, 'JPY')).toBe('¥1,200');
    expect(formatMoney(1250, 'KWD')).toMatch(/^KWD\s1\.250$/);
    expect(toMinorUnits('1.250', 'KWD')).toBe(1250);
    expect(toMinorUnits('1.2505', 'KWD')).toBeNull();
    expect(toMinorUnits('12.5', 'JPY')).toBeNull();
    expect(toMajorText(1200, 'JPY')).toBe('1200');
    expect(toMajorText(1250, 'KWD')).toBe('1.250');
    expect(toMajorText(5, 'EUR')).toBe('0.05');
    expect(toMajorText(-1250, 'EUR')).toBe('-12.50');
    expect(toMajorText(-7, 'KWD')).toBe('-0.007');
  });
});
