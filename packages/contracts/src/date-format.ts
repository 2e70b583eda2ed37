import type { TTimeFormat } from './display';

/**
 * How dates and times are written, in one place, for the server (e-mails, PDFs, CSV), the back
 * office and the web store: times follow the organisation's 12/24-hour setting (TTimeFormat) and
 * are shown in a given IANA zone; local days ("2026-11-27") are calendar dates without a zone,
 * written as UTC midnights so no zone can shift them. Intl only, no date library and no schema:
 * the store's bundle imports it as @tourdesk/contracts/date-format.
 */

type Instant = Date | string | number;

const formats = new Map<string, Intl.DateTimeFormat>();
/** One Intl.DateTimeFormat per locale and options, made once. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = locale + JSON.stringify(options);
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/** The Intl options of a clock in the 12/24-hour setting: "09:30", or "9:30 am" in 12-hour time. */
export const clockOptions = (format: TTimeFormat): Intl.DateTimeFormatOptions =>
  format === '12h' ? { hour: 'numeric', minute: '2-digit', hourCycle: 'h12' } : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/**
 * A local wall time as the API sends it ("14:30") in the setting: unchanged in 24-hour time,
 * "02:30 PM" in 12-hour time. Anything that is no "HH:mm" is returned as it is.
 */
export function clock(localTime: string, format: TTimeFormat) {
  if (format === '24h') return localTime;
  const [h, m] = localTime.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return localTime;
  return `${String(h % 12 || 12).padStart(2, '0')}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** "14:30" of an instant in `zone` (the runtime's zone without one): the wall time clock() reads. */
export const wallTime = (at: Instant, zone?: string) => dateTimeFormat('en-GB', { ...(zone ? { timeZone: zone } : {}), ...clockOptions('24h') }).format(new Date(at));

/** The time of an instant in `zone`, in `locale` and the setting: "09:30", "9:30 am" (en-GB), "9:30 AM" (en-US). */
export const timeText = (at: Instant, zone: string, format: TTimeFormat, locale = 'en-GB') => dateTimeFormat(locale, { timeZone: zone, ...clockOptions(format) }).format(new Date(at));

const LONG_DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };

/** A local day ("2026-11-27") in `locale`: "27 November 2026", "27. November 2026", "27 de noviembre de 2026". */
export const dayText = (day: string, locale: string) => dateTimeFormat(locale, { timeZone: 'UTC', ...LONG_DATE }).format(new Date(`${day}T00:00:00Z`));

/** The date of an instant in `zone` (the runtime's zone without one) in `locale`: "14 March 2026"; with its weekday "Saturday 14 March 2026". */
export const dateText = (at: Instant, locale: string, zone?: string, weekday = false) =>
  dateTimeFormat(locale, { ...(zone ? { timeZone: zone } : {}), ...(weekday ? { weekday: 'long' } : {}), ...LONG_DATE }).format(new Date(at));

/**
 * The date and time of an instant in `zone`, in `locale` and the setting. By default the long date
 * with its weekday: "Tuesday, 1 December 2026 at 09:30", "Dienstag, 1. Dezember 2026 um 09:30";
 * `date` gives other date parts ({ day: '2-digit', month: 'short', year: 'numeric' }: "28 Nov 2026, 09:30").
 */
export const dateTimeText = (at: Instant, zone: string, format: TTimeFormat, locale: string, date: Intl.DateTimeFormatOptions = { weekday: 'long', ...LONG_DATE }) =>
  dateTimeFormat(locale, { timeZone: zone, ...date, ...clockOptions(format) }).format(new Date(at));
