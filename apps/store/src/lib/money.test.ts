import { describe, expect, it } from 'vitest';
import { formatMoney, fractionDigits } from './money';

describe('money in the store’s currency, with its own minor units', () => {
  it('knows each currency’s decimals', () => {
    expect(fractionDigits('CHF')).toBe(2);
    expect(fractionDigits('JPY')).toBe(0);
    expect(fractionDigits('KWD')).toBe(3);
  });
  it('formats integer minor units', () => {
    expect(formatMoney(8900, 'CHF', 'en-GB')).toBe('CHF\u00a089.00');
    expect(formatMoney(4990, 'EUR', 'en-GB')).toBe('€49.90');
    expect(formatMoney(500, 'JPY', 'en-GB')).toBe('JP¥500');
    expect(formatMoney(1234, 'KWD', 'en-GB')).toBe('KWD\u00a01.234');
    expect(formatMoney(0, 'CHF', 'en-GB')).toBe('CHF\u00a00.00');
    expect(formatMoney(123456789, 'USD', 'en-GB')).toBe('US$1,234,567.89');
  });
  it('shows a dash for no amount', () => {
    expect(formatMoney(null, 'CHF', 'en-GB')).toBe('—');
    expect(formatMoney(undefined, 'CHF', 'en-GB')).toBe('—');
  });
  it('formats in the page’s locale', () => {
    expect(formatMoney(8900, 'CHF', 'de-DE')).toBe('89,00\u00a0CHF');
    expect(formatMoney(4990, 'EUR', 'fr-FR')).toBe('49,90\u00a0€');
    expect(formatMoney(123456, 'EUR', 'es-ES')).toBe('1234,56\u00a0€');
  });
});
