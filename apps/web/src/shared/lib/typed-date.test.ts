import { describe, expect, it } from 'vitest';
import { parseTypedDate, parseTypedTime } from './typed-date';

describe('parseTypedDate', () => {
  it('takes the stored format, the display format and day-first numbers', () => {
    expect(parseTypedDate('2026-03-29')).toBe('2026-03-29');
    expect(parseTypedDate('29. March 2026')).toBe('2026-03-29');
    expect(parseTypedDate('9. March 2026')).toBe('2026-03-09');
    expect(parseTypedDate('09. Mar 2026')).toBe('2026-03-09');
    expect(parseTypedDate(' 29  March 2026 ')).toBe('2026-03-29');
    expect(parseTypedDate('29.03.2026')).toBe('2026-03-29');
    expect(parseTypedDate('1.2.2027')).toBe('2027-02-01');
  });

  it('reads German month names for a German user (as the field shows the date to them), English ones still', () => {
    expect(parseTypedDate('29. März 2026', 'de')).toBe('2026-03-29');
    expect(parseTypedDate('1. Mai 2026', 'de')).toBe('2026-05-01');
    expect(parseTypedDate('29.03.2026', 'de')).toBe('2026-03-29');
    expect(parseTypedDate('29. March 2026', 'de')).toBe('2026-03-29');
    expect(parseTypedDate('29. März 2026')).toBeNull();
  });

  it('refuses a date that does not exist, a half-typed one and the US order', () => {
    expect(parseTypedDate('2026-02-30')).toBeNull();
    expect(parseTypedDate('31. April 2026')).toBeNull();
    expect(parseTypedDate('2026-03-2')).toBeNull();
    expect(parseTypedDate('29. Mar')).toBeNull();
    expect(parseTypedDate('03/29/2026')).toBeNull();
    expect(parseTypedDate('')).toBeNull();
  });
});

describe('parseTypedTime', () => {
  it('reads 24-hour and 12-hour times into HH:mm', () => {
    expect(parseTypedTime('14:30')).toBe('14:30');
    expect(parseTypedTime('9:05')).toBe('09:05');
    expect(parseTypedTime('00:00')).toBe('00:00');
    expect(parseTypedTime('2:30 PM')).toBe('14:30');
    expect(parseTypedTime('2 pm')).toBe('14:00');
    expect(parseTypedTime('12:15 a.m.')).toBe('00:15');
    expect(parseTypedTime('12 PM')).toBe('12:00');
    expect(parseTypedTime('09:00am')).toBe('09:00');
  });

  it('refuses what is not a time of day', () => {
    for (const bad of ['24:00', '9:60', '13:00 PM', '0 am', 'noon', '930', '']) expect(parseTypedTime(bad), bad).toBeNull();
  });
});
