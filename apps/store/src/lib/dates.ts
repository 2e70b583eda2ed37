import { LOCALE, MONTH_NAMES, t, WEEKDAY_NAMES } from '../texts';

/**
 * Dates and times of an offer are shown in the offer's IANA time zone (never the browser's): a
 * customer abroad sees the time the tour starts where it starts. Local dates ("2026-06-14") are
 * calendar dates without a zone; they are formatted as UTC midnights so no zone can shift them.
 */
const cache = new Map<string, Intl.DateTimeFormat>();
function fmt(options: Intl.DateTimeFormatOptions, locale = LOCALE) {
  const key = locale + JSON.stringify(options);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** The calendar date (YYYY-MM-DD) it is now, or at `at`, in `timeZone`: the contracts' one definition. */
export { todayIn } from '@tourdesk/contracts/local-date';

const utcOf = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, (m ?? 1) - 1, d ?? 1));
};

/** Monday 0 … Sunday 6 of a local date. */
const weekdayOf = (date: string) => (utcOf(date).getUTCDay() + 6) % 7;
const parts = (date: string) => date.split('-').map(Number) as [number, number, number];

/** "Sunday, 14 June 2026" for a local date (drawn on the server too: from texts.ts's names, not Intl). */
export const formatLongDate = (date: string) => {
  const [y, m, d] = parts(date);
  return `${WEEKDAY_NAMES[weekdayOf(date)]}, ${d} ${MONTH_NAMES[m - 1]} ${y}`;
};
/** "June 2026" for YYYY-MM. */
export const formatMonth = (month: string) => {
  const [y, m] = parts(`${month}-01`);
  return `${MONTH_NAMES[m - 1]} ${y}`;
};

/** "Sunday, 14 June 2026 at 09:30" of an instant, in the offer's zone. */
export const formatDateTime = (iso: string, timeZone: string) =>
  fmt({ timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
/** "09:30" of an instant, in the offer's zone. */
export const formatTime = (iso: string, timeZone: string) => fmt({ timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** 90 → "1 h 30 min"; 2880 → "2 days". */
export function formatDuration(minutes: number | null | undefined) {
  if (!minutes || minutes <= 0) return '';
  if (minutes >= 1440 && minutes % 1440 === 0) return t.days(minutes / 1440);
  if (minutes < 60) return t.minutes(minutes);
  return t.hours(Math.floor(minutes / 60), minutes % 60);
}
