import type { T } from '../i18n';

/** "2026-06" + 1 → "2026-07"; across years both ways. */
export function addMonths(month: string, n: number) {
  const [y, m] = month.split('-').map(Number);
  const index = y! * 12 + (m! - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The weeks of a month as a calendar shows them, Monday first: each week seven cells, a cell the
 * local date (YYYY-MM-DD) or null where the week starts before or ends after the month.
 */
export function monthGrid(month: string): (string | null)[][] {
  const [y, m] = month.split('-').map(Number);
  const first = new Date(Date.UTC(y!, m! - 1, 1));
  const days = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= days; d += 1) cells.push(`${month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** The weekday names Monday to Sunday: short ("Mo") and long ("Monday"), from the catalog (not Intl: the server draws them too). */
export const weekdays = (t: T) => DAYS.map((d) => ({ short: t(`weekdayShort${d}`), long: t(`weekday${d}`) }));

export type DayState = 'available' | 'sold_out' | 'none' | 'past';

/** What a day of the month grid is: bookable, sold out, without times, or before today. */
export function dayState(date: string, today: string, days: Map<string, { seats_left: number; times: number }>): DayState {
  if (date < today) return 'past';
  const day = days.get(date);
  if (!day || day.times === 0) return 'none';
  return day.seats_left > 0 ? 'available' : 'sold_out';
}
