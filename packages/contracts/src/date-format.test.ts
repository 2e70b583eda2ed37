import { describe, expect, it } from 'vitest';
import { clock, dateText, dateTimeText, dayText, timeText, wallTime } from './date-format';

const at = new Date('2026-12-01T20:05:00Z'); // 21:05 in Zurich

describe('date-format', () => {
  it('writes a wall time in the 12/24-hour setting', () => {
    expect(clock('14:30', '24h')).toBe('14:30');
    expect(clock('14:30', '12h')).toBe('02:30 PM');
    expect(clock('00:15', '12h')).toBe('12:15 AM');
    expect(clock('12:00', '12h')).toBe('12:00 PM');
    expect(clock('later', '12h')).toBe('later');
  });

  it('writes an instant’s time in a zone and the setting', () => {
    expect(wallTime(at, 'Europe/Zurich')).toBe('21:05');
    expect(timeText(at, 'Europe/Zurich', '24h')).toBe('21:05');
    expect(timeText(at, 'Europe/Zurich', '12h')).toBe('9:05 pm');
    expect(timeText(at, 'Europe/Zurich', '12h', 'en-US')).toBe('9:05 PM');
    expect(timeText(at, 'America/New_York', '24h')).toBe('15:05');
  });

  it('writes local days and dates in a locale, a day never shifted by a zone', () => {
    expect(dayText('2026-11-27', 'en-GB')).toBe('27 November 2026');
    expect(dayText('2026-11-27', 'de-DE')).toBe('27. November 2026');
    expect(dateText('2026-12-01T23:30:00Z', 'en-GB', 'Europe/Zurich')).toBe('2 December 2026');
    expect(dateText('2026-12-01T23:30:00Z', 'en-GB', 'UTC')).toBe('1 December 2026');
    expect(dateText('2026-12-01T23:30:00Z', 'en-GB', 'Europe/Zurich', true)).toMatch(/^Wednesday,? 2 December 2026$/);
  });

  it('writes a date and time in the setting', () => {
    expect(dateTimeText(at, 'Europe/Zurich', '24h', 'en-GB')).toMatch(/^Tuesday,? 1 December 2026 at 21:05$/);
    expect(dateTimeText(at, 'Europe/Zurich', '12h', 'en-GB', { day: '2-digit', month: 'short', year: 'numeric' })).toBe('01 Dec 2026, 9:05 pm');
  });
});
