import type { TWebMonth } from '@tourdesk/contracts';
import { useMemo } from 'preact/hooks';
import { dayState, monthGrid, weekdays } from '../lib/calendar';
import { formatLongDate, formatMonth } from '../lib/dates';
import { t } from '../texts';

const WEEKDAYS = weekdays();

/**
 * A month of days: those with seats can be chosen, sold-out days are marked, days without times
 * (and past days) are disabled. Buttons in a table, so the keyboard reaches every bookable day.
 */
export function Calendar({
  month,
  data,
  today,
  selected,
  canGoBack,
  loading,
  onMonth,
  onSelect,
}: {
  month: string;
  data: TWebMonth | null;
  today: string;
  selected: string | null;
  canGoBack: boolean;
  loading: boolean;
  onMonth: (delta: number) => void;
  onSelect: (date: string) => void;
}) {
  const weeks = useMemo(() => monthGrid(month), [month]);
  const days = useMemo(() => new Map((data?.days ?? []).map((d) => [d.date, d])), [data]);
  const anyAvailable = data ? data.days.some((d) => d.seats_left > 0 && d.date >= today) : true;
  return (
    <div class="td-calendar" aria-busy={loading}>
      <div class="td-calendar-head">
        <button type="button" class="td-icon-btn" onClick={() => onMonth(-1)} disabled={!canGoBack} aria-label={t.previousMonth}>
          <span aria-hidden="true">‹</span>
        </button>
        <h3 class="td-calendar-title" aria-live="polite" id="td-month-label">
          {formatMonth(month)}
        </h3>
        <button type="button" class="td-icon-btn" onClick={() => onMonth(1)} aria-label={t.nextMonth}>
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <table class="td-calendar-grid" aria-labelledby="td-month-label">
        <thead>
          <tr>
            {WEEKDAYS.map((w) => (
              <th key={w.long} scope="col">
                <abbr title={w.long}>{w.short.slice(0, 2)}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, i) => (
            <tr key={i}>
              {week.map((date, j) => {
                if (!date) return <td key={j} />;
                const state = dayState(date, today, days);
                const info = days.get(date);
                const label = formatLongDate(date);
                const aria =
                  state === 'available' ? t.dayAvailable(label, info!.seats_left) : state === 'sold_out' ? t.daySoldOut(label) : t.dayUnavailable(label);
                return (
                  <td key={j}>
                    <button
                      type="button"
                      class={`td-day td-day--${state}${selected === date ? ' td-day--selected' : ''}`}
                      disabled={state !== 'available'}
                      aria-pressed={selected === date}
                      aria-label={aria}
                      data-date={date}
                      onClick={() => onSelect(date)}
                    >
                      {Number(date.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p class="td-legend">
        <span class="td-legend-item">
          <span class="td-swatch td-swatch--available" aria-hidden="true" /> {t.legendAvailable}
        </span>
        <span class="td-legend-item">
          <span class="td-swatch td-swatch--sold_out" aria-hidden="true" /> {t.legendSoldOut}
        </span>
      </p>
      {!loading && !anyAvailable && <p class="td-muted">{t.noDatesThisMonth}</p>}
    </div>
  );
}
