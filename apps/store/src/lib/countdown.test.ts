import { describe, expect, it } from 'vitest';
import { formatCountdown, minutesLeft, msLeft } from './countdown';

describe('the hold countdown', () => {
  const now = Date.parse('2026-06-14T10:00:00Z');
  it('counts the time left to an expiry, never below zero', () => {
    expect(msLeft('2026-06-14T10:15:00Z', now)).toBe(15 * 60_000);
    expect(msLeft('2026-06-14T09:59:00Z', now)).toBe(0);
  });
  it('shows minutes and seconds, rounding up so 0:00 means run out', () => {
    expect(formatCountdown(15 * 60_000)).toBe('15:00');
    expect(formatCountdown(581_000)).toBe('9:41');
    expect(formatCountdown(580_001)).toBe('9:41');
    expect(formatCountdown(999)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5000)).toBe('0:00');
    expect(formatCountdown(3_725_000)).toBe('1:02:05');
  });
  it('tells screen readers whole minutes', () => {
    expect(minutesLeft(581_000)).toBe(10);
    expect(minutesLeft(60_000)).toBe(1);
    expect(minutesLeft(1)).toBe(1);
    expect(minutesLeft(0)).toBe(0);
  });
});
