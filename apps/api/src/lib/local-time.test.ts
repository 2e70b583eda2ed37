import { describe, expect, it } from 'vitest';
import { eachDay, localToUtc, utcToLocal } from './local-time';

describe('local times across daylight-saving changes', () => {
  const zurich = 'Europe/Zurich';

  it('keeps a 09:00 tour at 09:00 local on both sides of a change', () => {
    expect(localToUtc('2026-03-28', '09:00', zurich).toISOString()).toBe('2026-03-28T08:00:00.000Z'); // CET, UTC+1
    expect(localToUtc('2026-03-29', '09:00', zurich).toISOString()).toBe('2026-03-29T07:00:00.000Z'); // CEST, UTC+2
    expect(localToUtc('2026-10-25', '09:00', zurich).toISOString()).toBe('2026-10-25T08:00:00.000Z'); // CET again
    expect(utcToLocal(new Date('2026-03-29T07:00:00Z'), zurich)).toEqual({ date: '2026-03-29', time: '09:00' });
  });

  it('moves a time in the spring-forward gap forward by the gap (02:30 → 03:30)', () => {
    const instant = localToUtc('2026-03-29', '02:30', zurich);
    expect(instant.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(utcToLocal(instant, zurich).time).toBe('03:30');
  });

  it('takes the first of the two 02:30s on the fall-back night', () => {
    const instant = localToUtc('2026-10-25', '02:30', zurich);
    expect(instant.toISOString()).toBe('2026-10-25T00:30:00.000Z'); // still CEST (UTC+2)
    expect(utcToLocal(instant, zurich).time).toBe('02:30');
  });

  it('works in zones south of the equator and without DST', () => {
    expect(localToUtc('2026-04-05', '02:30', 'Pacific/Auckland').toISOString()).toBe('2026-04-04T13:30:00.000Z'); // first 02:30 (NZDT)
    expect(localToUtc('2026-09-27', '02:30', 'Pacific/Auckland').toISOString()).toBe('2026-09-26T14:30:00.000Z'); // gap → 03:30 NZDT
    expect(localToUtc('2026-07-01', '09:00', 'UTC').toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(localToUtc('2026-07-01', '09:00', 'Asia/Kolkata').toISOString()).toBe('2026-07-01T03:30:00.000Z');
  });

  it('walks days with ISO weekdays', () => {
    expect([...eachDay('2026-11-20', '2026-11-23')]).toEqual([
      { date: '2026-11-20', weekday: 5 },
      { date: '2026-11-21', weekday: 6 },
      { date: '2026-11-22', weekday: 7 },
      { date: '2026-11-23', weekday: 1 },
    ]);
  });
});
