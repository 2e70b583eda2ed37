import { describe, expect, it } from 'vitest';
import { formatMoney, fractionDigits } from './money';

describe('money in the store’s currency, with its own minor units', () => {
  it('knows each currency’s decimals', () => {
    expect(fractionDigits('CHF')).toBe(2);
    expect(fractionDigits('JPY')).toBe(0);
    expect(fractionDigits('KWD')).toBe(3);
  });
  it('formats integer minor units', () => {
    expect(formatMoney(8900, 'CHF')).toBe('CHF\u00a089.00');
    expect(formatMoney(4990, 'EUR')).toBe('€49.90');
    expect(formatMoney(500, 'JPY')).toBe('JP¥500');
    expect(formatMoney(1234, 'KWD')).toBe('KWD\u00a01.234');
    expect(formatMoney(0, 'CHF')).toBe('CHF\u00a00.00');
    expect(formatMoney(123456789, 'USD')).toBe('US$1,234,567.89');
  });
  it('shows a dash for no amount', () => {
    expect(formatMoney(null, 'CHF')).toBe('—');
    expect(formatMoney(undefined, 'CHF')).toBe('—');
  });
});
