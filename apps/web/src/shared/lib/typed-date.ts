import dayjs from 'dayjs';
import de from 'dayjs/locale/de';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { DATE_FORMAT } from '@tourdesk/contracts';

dayjs.extend(customParseFormat);
// German month names, for the date field of a German user (registered only: the default stays English).
dayjs.locale(de, undefined, true);

/**
 * What a person may type in a date field: the spec's stored format (2026-03-29), its display
 * format (29. March 2026, the day with or without its leading zero, the month written or cut to
 * three letters) and the day-first numbers people write (29.03.2026). Read strictly: a date that
 * does not exist (2026-02-30) is not a date.
 */
const TYPED_FORMATS = [
  DATE_FORMAT,
  // strict parsing wants the day and month written as the format writes them: both widths
  ...['D', 'DD'].flatMap((d) => [`${d}. MMMM YYYY`, `${d}. MMM YYYY`, `${d} MMMM YYYY`, `${d} MMM YYYY`, `${d}.M.YYYY`, `${d}.MM.YYYY`]),
];

/**
 * A typed date as YYYY-MM-DD, or null while it is not (yet) a whole, real date. Month names are
 * read in English and, for a German user (`language`), in German too ("29. März 2026", as the
 * field shows it to them).
 */
export function parseTypedDate(text: string, language: 'en' | 'de' = 'en'): string | null {
  const value = text.trim().replace(/\s+/g, ' ');
  if (!value) return null;
  for (const locale of language === 'en' ? ['en'] : [language, 'en']) {
    for (const format of TYPED_FORMATS) {
      const parsed = dayjs(value, format, locale, true);
      if (parsed.isValid()) return parsed.format(DATE_FORMAT);
    }
  }
  return null;
}

/**
 * A typed time of day as HH:mm (24-hour), whichever way the organisation reads times: "14:30",
 * "9:05", "2:30 PM", "2 pm", "12:15 a.m.". Null for anything else (25:00, 13:00 PM, "noon").
 */
export function parseTypedTime(text: string): string | null {
  const value = text.trim().toLowerCase();
  const twelve = /^(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?\s*m\.?$/.exec(value);
  if (twelve) {
    const hour = Number(twelve[1]);
    if (hour < 1 || hour > 12) return null;
    const h24 = (hour % 12) + (twelve[3] === 'p' ? 12 : 0);
    return `${String(h24).padStart(2, '0')}:${twelve[2] ?? '00'}`;
  }
  const day = /^(\d{1,2}):([0-5]\d)$/.exec(value);
  if (day && Number(day[1]) <= 23) return `${day[1]!.padStart(2, '0')}:${day[2]}`;
  return null;
}
