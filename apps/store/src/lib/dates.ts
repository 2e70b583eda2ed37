import type { T } from '../i18n';

/**
 * Dates and times of an offer are shown in the offer's IANA time zone (never the browser's): a
 * customer abroad sees the time the tour starts where it starts. Local dates ("2026-06-14") are
 * calendar dates without a zone; they are formatted as UTC midnights so no zone can shift them.
 * Each function takes the page's translate function: its catalog names the days and months, its
 * locale formats the rest (Intl). How a time is written (the 12/24-hour rule) is the contracts'
 * date-format.ts.
 */

/** The calendar date (YYYY-MM-DD) it is now, or at `at`, in `timeZone`: the contracts' one definition. */
import { todayIn } from '@tourdesk/contracts/local-date';
import { timeText } from '@tourdesk/contracts/date-format';

export { todayIn };

const utcOf = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, (m ?? 1) - 1, d ?? 1));
};

/** Monday 0 … Sunday 6 of a local date. */
const weekdayOf = (date: string) => (utcOf(date).getUTCDay() + 6) % 7;
const parts = (date: string) => date.split('-').map(Number) as [number, number, number];
const WEEKDAY = ['weekday1', 'weekday2', 'weekday3', 'weekday4', 'weekday5', 'weekday6', 'weekday7'] as const;
const MONTH = ['month1', 'month2', 'month3', 'month4', 'month5', 'month6', 'month7', 'month8', 'month9', 'month10', 'month11', 'month12'] as const;

/** "Sunday, 14 June 2026" for a local date (drawn on the server too: from the catalog's names, not Intl). */
export const formatLongDate = (t: T, date: string) => {
  const [y, m, d] = parts(date);
  return t('longDate', { weekday: t(WEEKDAY[weekdayOf(date)]!), day: String(d), month: t(MONTH[m - 1]!), year: String(y) });
};
/** "June 2026" for YYYY-MM. */
export const formatMonth = (t: T, month: string) => {
  const [y, m] = parts(`${month}-01`);
  return t('monthYear', { month: t(MONTH[m - 1]!), year: String(y) });
};

/** "Sunday, 14 June 2026 at 09:30" of an instant, in the offer's zone: the catalog's names and words, the time from Intl (12-hour: "9:30 am"). */
export const formatDateTime = (t: T, iso: string, timeZone: string, hour12 = false) =>
  t('dateTime', { date: formatLongDate(t, todayIn(timeZone, new Date(iso))), time: formatTime(t, iso, timeZone, hour12) });
/** "09:30" of an instant, in the offer's zone, in the page's locale; with the organisation's 12-hour clock "9:30 am" (the contracts' timeText()). */
export const formatTime = (t: T, iso: string, timeZone: string, hour12 = false) => timeText(iso, timeZone, hour12 ? '12h' : '24h', t.locale);

/** 90 → "1 h 30 min"; 2880 → "2 days". */
export function formatDuration(t: T, minutes: number | null | undefined) {
  if (!minutes || minutes <= 0) return '';
  if (minutes >= 1440 && minutes % 1440 === 0) return t('days', { n: minutes / 1440 });
  if (minutes < 60) return t('minutes', { n: String(minutes) });
  const h = String(Math.floor(minutes / 60));
  return minutes % 60 ? t('hoursMinutes', { h, m: String(minutes % 60) }) : t('hours', { h });
}
