import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatLongDate, formatMonth, formatTime, todayIn } from './dates';

describe('dates and times in the offer’s time zone', () => {
  it('tells the local date in a zone, whatever the browser’s', () => {
    const at = new Date('2026-03-28T23:30:00Z');
    expect(todayIn('Europe/Zurich', at)).toBe('2026-03-29');
    expect(todayIn('America/New_York', at)).toBe('2026-03-28');
    expect(todayIn('Pacific/Auckland', new Date('2026-12-31T11:00:00Z'))).toBe('2027-01-01');
  });
  it('shows an instant at the wall time of the zone, across daylight saving', () => {
    // 29 March 2026: Zurich moves from UTC+1 to UTC+2.
    expect(formatTime('2026-03-28T08:30:00Z', 'Europe/Zurich')).toBe('09:30');
    expect(formatTime('2026-03-29T07:30:00Z', 'Europe/Zurich')).toBe('09:30');
    expect(formatDateTime('2026-06-14T07:30:00Z', 'Europe/Zurich')).toBe('Sunday, 14 June 2026 at 09:30');
    expect(formatDateTime('2026-06-14T07:30:00Z', 'America/New_York')).toBe('Sunday, 14 June 2026 at 03:30');
  });
  it('never shifts a local calendar date', () => {
    expect(formatLongDate('2026-06-14')).toBe('Sunday, 14 June 2026');
    expect(formatLongDate('2026-01-01')).toBe('Thursday, 1 January 2026');
    expect(formatMonth('2026-02')).toBe('February 2026');
  });
  it('writes durations people read', () => {
    expect(formatDuration(45)).toBe('45 min');
    expect(formatDuration(60)).toBe('1 h');
    expect(formatDuration(150)).toBe('2 h 30 min');
    expect(formatDuration(2880)).toBe('2 days');
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(0)).toBe('');
  });
});
