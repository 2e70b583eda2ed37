import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDisplayDate, formatTime, parseDate } from './dates';

describe('date helpers', () => {
  const instant = '2026-03-29T12:30:00Z';

  it('formats dates as YYYY-MM-DD and for display as DD. MMMM YYYY', () => {
    expect(formatDate(instant)).toBe('2026-03-29');
    expect(formatDisplayDate(instant)).toBe('29. March 2026');
  });

  it('formats times in 24-hour HH:mm and 12-hour hh:mm A', () => {
    expect(formatTime(instant)).toBe('12:30');
    expect(formatTime(instant, undefined, '12h')).toBe('12:30 PM');
    expect(formatTime('2026-03-29T07:05:00Z', undefined, '12h')).toBe('07:05 AM');
  });

  it('shows a UTC instant in the experience’s time zone, across a DST change', () => {
    // Europe/Zurich moves to summer time on 29 March 2026 at 02:00 local.
    expect(formatTime('2026-03-28T08:00:00Z', 'Europe/Zurich')).toBe('09:00');
    expect(formatTime('2026-03-29T07:00:00Z', 'Europe/Zurich')).toBe('09:00');
    expect(formatDateTime('2026-12-31T23:30:00Z', 'Pacific/Auckland')).toBe('01. January 2027, 12:30');
    expect(formatDate('2026-12-31T23:30:00Z', 'America/New_York')).toBe('2026-12-31');
  });

  it('parses only real YYYY-MM-DD dates', () => {
    expect(parseDate('2026-02-28')?.format('YYYY-MM-DD')).toBe('2026-02-28');
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('28.02.2026')).toBeNull();
    expect(parseDate('')).toBeNull();
    expect(parseDate(null)).toBeNull();
  });
});
