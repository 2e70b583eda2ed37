import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Minutes east of UTC that `zone` observes at `instant`. */
function offsetMinutes(zone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - instant) / 60_000);
}

/**
 * The UTC instant of a local wall-clock time ("2026-03-29", "09:00") in an IANA zone, as
 * RFC 5545 resolves daylight-saving edges: a time that does not exist (the spring-forward gap)
 * moves forward by the length of the gap (02:30 → 03:30); a time that exists twice (the fall-back
 * overlap) is the first of the two.
 */
export function localToUtc(date: string, time: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const naive = Date.UTC(y, m - 1, d, hh, mm);
  // A zone changes its offset at most once around a given day: the offsets a day before and a
  // day after are the only candidates.
  const earlier = offsetMinutes(zone, naive - 24 * 3_600_000);
  const later = offsetMinutes(zone, naive + 24 * 3_600_000);
  const exact = [...new Set([earlier, later])]
    .map((off) => naive - off * 60_000)
    .filter((instant) => instant + offsetMinutes(zone, instant) * 60_000 === naive)
    .sort((a, b) => a - b);
  if (exact.length > 0) return new Date(exact[0]!);
  // In a gap: read the wall time with the offset from before the gap, which lands after it.
  return new Date(naive - earlier * 60_000);
}

/** The local date (YYYY-MM-DD) and time (HH:mm) of an instant in a zone. */
export function utcToLocal(instant: Date, zone: string): { date: string; time: string } {
  const d = dayjs(instant).tz(zone);
  return { date: d.format('YYYY-MM-DD'), time: d.format('HH:mm') };
}

/** Every date from `from` to `to` (inclusive), as YYYY-MM-DD, with its ISO weekday (1 = Monday). */
export function* eachDay(from: string, to: string): Generator<{ date: string; weekday: number }> {
  let day = dayjs.utc(from);
  const end = dayjs.utc(to);
  while (!day.isAfter(end)) {
    yield { date: day.format('YYYY-MM-DD'), weekday: ((day.day() + 6) % 7) + 1 };
    day = day.add(1, 'day');
  }
}

/** Today in a zone: the contracts' one definition (the back office and the web store use it too). */
export { todayIn } from '@tourdesk/contracts';
export const addDays = (date: string, days: number) => dayjs.utc(date).add(days, 'day').format('YYYY-MM-DD');
/** A local date `months` later (the 31st of a shorter month is its last day). */
export const addMonths = (date: string, months: number) => dayjs.utc(date).add(months, 'month').format('YYYY-MM-DD');
