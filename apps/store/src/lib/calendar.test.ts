import { describe, expect, it } from 'vitest';
import { testT } from './test-i18n';
import { addMonths, dayState, monthGrid, weekdays } from './calendar';

describe('the calendar’s month grid', () => {
  it('lays a month out in weeks starting on Monday', () => {
    // June 2026 starts on a Monday and has 30 days: five weeks, the last padded.
    const june = monthGrid('2026-06');
    expect(june).toHaveLength(5);
    expect(june[0]).toEqual(['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06', '2026-06-07']);
    expect(june[4]).toEqual(['2026-06-29', '2026-06-30', null, null, null, null, null]);
  });
  it('pads the days before the first', () => {
    // March 2026 starts on a Sunday: six weeks.
    const march = monthGrid('2026-03');
    expect(march[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(march).toHaveLength(6);
    expect(march.flat().filter(Boolean)).toHaveLength(31);
    for (const week of march) expect(week).toHaveLength(7);
  });
  it('knows leap years', () => {
    expect(monthGrid('2028-02').flat().filter(Boolean).at(-1)).toBe('2028-02-29');
    expect(monthGrid('2026-02').flat().filter(Boolean).at(-1)).toBe('2026-02-28');
    // February 2027 starts on a Monday and fills exactly four weeks.
    expect(monthGrid('2027-02')).toHaveLength(4);
  });
  it('moves between months across years', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-06', 13)).toBe('2027-07');
    expect(addMonths('2026-06', -18)).toBe('2024-12');
  });
  it('names the weekdays from Monday', () => {
    expect(weekdays(testT()).map((d) => d.short)).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    expect(weekdays(testT('de')).map((d) => d.long)[6]).toBe('Sonntag');
  });
  it('tells a bookable day from a sold-out one, one without times, and a past one', () => {
    const days = new Map([
      ['2026-06-10', { seats_left: 4, times: 2 }],
      ['2026-06-11', { seats_left: 0, times: 2 }],
      ['2026-06-08', { seats_left: 3, times: 1 }],
    ]);
    expect(dayState('2026-06-10', '2026-06-09', days)).toBe('available');
    expect(dayState('2026-06-11', '2026-06-09', days)).toBe('sold_out');
    expect(dayState('2026-06-12', '2026-06-09', days)).toBe('none');
    expect(dayState('2026-06-08', '2026-06-09', days)).toBe('past');
  });
});
