import { describe, expect, it } from 'vitest';
import { testT } from './test-i18n';

const t = testT();
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
    expect(formatTime(t, '2026-03-28T08:30:00Z', 'Europe/Zurich')).toBe('09:30');
    expect(formatTime(t, '2026-03-29T07:30:00Z', 'Europe/Zurich')).toBe('09:30');
    expect(formatDateTime(t, '2026-06-14T07:30:00Z', 'Europe/Zurich')).toBe('Sunday, 14 June 2026 at 09:30');
    expect(formatDateTime(t, '2026-06-14T07:30:00Z', 'America/New_York')).toBe('Sunday, 14 June 2026 at 03:30');
  });
  it('never shifts a local calendar date', () => {
    expect(formatLongDate(t, '2026-06-14')).toBe('Sunday, 14 June 2026');
    expect(formatLongDate(t, '2026-01-01')).toBe('Thursday, 1 January 2026');
    expect(formatMonth(t, '2026-02')).toBe('February 2026');
  });
  it('writes durations people read', () => {
    expect(formatDuration(t, 45)).toBe('45 min');
    expect(formatDuration(t, 60)).toBe('1 h');
    expect(formatDuration(t, 150)).toBe('2 h 30 min');
    expect(formatDuration(t, 2880)).toBe('2 days');
    expect(formatDuration(t, null)).toBe('');
    expect(formatDuration(t, 0)).toBe('');
  });
  it('speaks the page’s language: names from its catalog, times from Intl in its locale', () => {
    const de = testT('de');
    expect(formatLongDate(de, '2026-06-14')).toBe('Sonntag, 14. Juni 2026');
    expect(formatMonth(de, '2026-03')).toBe('März 2026');
    expect(formatDuration(de, 150)).toBe('2 Std. 30 Min.');
    expect(formatDuration(de, 1440)).toBe('1 Tag');
    expect(formatLongDate(testT('fr'), '2026-06-14')).toBe('dimanche 14 juin 2026');
    expect(formatLongDate(testT('es'), '2026-06-14')).toBe('domingo, 14 de junio de 2026');
    expect(formatMonth(testT('it'), '2026-08')).toBe('agosto 2026');
    expect(formatDateTime(testT('fr'), '2026-06-14T07:30:00Z', 'Europe/Zurich')).toBe('dimanche 14 juin 2026 à 09:30');
    // A year is a string to the catalog, never a grouped number ("2.026").
    expect(formatMonth(de, '2026-12')).not.toContain('2.026');
  });
  it('follows the organisation’s 12-hour clock in the page’s locale', () => {
    expect(formatTime(t, '2026-06-14T12:30:00Z', 'Europe/Zurich', true)).toMatch(/^2:30\spm$/);
    expect(formatDateTime(testT('de'), '2026-06-14T07:30:00Z', 'Europe/Zurich', true)).toMatch(/^Sonntag, 14\. Juni 2026 um 9:30\sAM$/);
    expect(formatTime(testT('fr'), '2026-06-14T07:30:00Z', 'Europe/Zurich')).toBe('09:30');
  });
});
