import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { DATE_DISPLAY_FORMAT, DATE_FORMAT, type TTimeFormat } from '@tourdesk/contracts';
import { clock as wallClock } from '@tourdesk/contracts/date-format';

dayjs.extend(utc);
dayjs.extend(timezone);

import { currentLanguage, currentLocale } from '../i18n/language';
import { timeFormat } from './time-format';

export { setTimeFormat, timeFormat } from './time-format';

/** A local wall time as the API sends it ("14:30") in the organisation's format ("02:30 PM" in 12-hour time): the contracts' clock(). */
export const clock = (localTime: string, format: TTimeFormat = timeFormat()) => wallClock(localTime, format);
type DateInput = string | number | Date | dayjs.Dayjs;

/**
 * Instants arrive from the API in UTC; they are shown in the experience's (or account's)
 * IANA time zone. Without a zone, the browser's own zone is used.
 */
const inZone = (value: DateInput, timeZone?: string) => (timeZone ? dayjs(value).tz(timeZone) : dayjs(value));

/** 2026-03-29: the format of dates in URLs, filters and the API. */
export const formatDate = (value: DateInput, timeZone?: string) => inZone(value, timeZone).format(DATE_FORMAT);

/**
 * A date with dayjs's pattern tokens (dddd, ddd, DD, D, MMMM, MMM, MM, YYYY) in the user's language:
 * English as the pattern says ("Sunday, 29. March 2026"); another language through Intl in its
 * locale, with the same parts in that language's order ("Sonntag, 29. März 2026").
 */
export function formatDatePattern(value: DateInput, pattern: string, timeZone?: string) {
  const d = inZone(value, timeZone);
  if (currentLanguage() === 'en') return d.format(pattern);
  const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC' };
  if (pattern.includes('dddd')) options.weekday = 'long';
  else if (pattern.includes('ddd')) options.weekday = 'short';
  if (pattern.includes('DD')) options.day = '2-digit';
  else if (pattern.includes('D')) options.day = 'numeric';
  if (pattern.includes('MMMM')) options.month = 'long';
  else if (pattern.includes('MMM')) options.month = 'short';
  else if (pattern.includes('MM')) options.month = '2-digit';
  if (pattern.includes('YYYY')) options.year = 'numeric';
  return new Intl.DateTimeFormat(currentLocale(), options).format(new Date(Date.UTC(d.year(), d.month(), d.date())));
}

/** "29. March 2026" (the display format), "29. März 2026" in German. */
export const formatDisplayDate = (value: DateInput, timeZone?: string) => formatDatePattern(value, DATE_DISPLAY_FORMAT, timeZone);

/** "14:30" (24-hour) or "02:30 PM" (12-hour). */
export const formatTime = (value: DateInput, timeZone?: string, format: TTimeFormat = timeFormat()) => clock(inZone(value, timeZone).format('HH:mm'), format);

/** "29. March 2026, 14:30" ("29. März 2026, 14:30"). */
export const formatDateTime = (value: DateInput, timeZone?: string, format: TTimeFormat = timeFormat()) =>
  `${formatDisplayDate(value, timeZone)}, ${formatTime(value, timeZone, format)}`;

/** Parses a YYYY-MM-DD string strictly; anything else is null. */
export function parseDate(value: string | null | undefined): dayjs.Dayjs | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const parsed = dayjs(value, DATE_FORMAT);
  return parsed.isValid() && parsed.format(DATE_FORMAT) === value ? parsed : null;
}
