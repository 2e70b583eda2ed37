import { describe, expect, it } from 'vitest';
import { feeToStripe, fromStripe, stripeDecimals, stripeMinimum, stripeStep, toStripe } from './stripe-amounts';

describe('amounts at Stripe’s boundary', () => {
  it('are the same where Stripe counts as ISO 4217 does', () => {
    expect(toStripe(4990, 'CHF')).toBe(4990);
    expect(toStripe(4900, 'JPY')).toBe(4900);
    expect(fromStripe(4990, 'chf')).toBe(4990);
    expect(stripeDecimals('JPY')).toBe(0);
  });
  it('count ISK with two decimals, as Stripe does: 5,000 ISK is 500000', () => {
    expect(toStripe(5000, 'ISK')).toBe(500000);
    expect(fromStripe(500000, 'isk')).toBe(5000);
    expect(fromStripe(500050, 'ISK')).toBeNull();
  });
  it('take three-decimal currencies only in steps of 10, and round the fee down to one', () => {
    expect(toStripe(12340, 'KWD')).toBe(12340);
    expect(() => toStripe(12345, 'KWD')).toThrow(/steps of 0\.010/);
    expect(feeToStripe(12345, 'BHD')).toBe(12340);
    expect(feeToStripe(123, 'ISK')).toBe(12300);
    expect(feeToStripe(99, 'CHF')).toBe(99);
  });
  it('know the smallest charge Stripe takes and the step of an amount, in our minor units', () => {
    expect(stripeMinimum('CHF')).toBe(50);
    expect(stripeMinimum('eur')).toBe(50);
    expect(stripeMinimum('GBP')).toBe(30);
    expect(stripeMinimum('JPY')).toBe(50);
    expect(stripeMinimum('DKK')).toBe(250);
    expect(stripeMinimum('KWD')).toBe(50);
    expect(stripeStep('KWD')).toBe(10);
    expect(stripeStep('CHF')).toBe(1);
    expect(stripeStep('ISK')).toBe(1);
  });
});
