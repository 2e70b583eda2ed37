import type { TWebMonth } from '@tourdesk/contracts';
import { useMemo, type MouseEvent } from 'react';
import { addMonths, dayState, monthGrid, weekdays } from '../lib/calendar';
import { formatLongDate, formatMonth } from '../lib/dates';
import { useT } from '../i18n';

/** A plain click stays in the page; a middle click or a modifier opens the link as links do. */
const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/**
 * A month of days: those with seats are links that choose them (?date=), sold-out days are marked,
 * days without times (and past days) are plain text; the months before and after are links too
 * (?month=). Links work before the page's script runs (the server draws the chosen day's times);
 * with it, a click changes the page in place.
 */
export function Calendar({
  month,
  data,
  today,
  selected,
  canGoBack,
  loading,
  href,
  onMonth,
  onSelect,
}: {
  month: string;
  data: TWebMonth | null;
  today: string;
  selected: string | null;
  canGoBack: boolean;
  loading: boolean;
  /** The address of the offer page with these parameters. */
  href: (params: { month?: string; date?: string }) => string;
  onMonth: (month: string) => void;
  onSelect: (date: string) => void;
}) {
  const t = useT();
  const WEEKDAYS = useMemo(() => weekdays(t), [t]);
  const weeks = useMemo(() => monthGrid(month), [month]);
  const days = useMemo(() => new Map((data?.days ?? []).map((d) => [d.date, d])), [data]);
  const anyAvailable = data ? data.days.some((d) => d.seats_left > 0 && d.date >= today) : true;
  const previous = addMonths(month, -1);
  const next = addMonths(month, 1);
  return (
    <div className="td-calendar" aria-busy={loading}>
      <div className="td-calendar-head">
        {canGoBack ? (
          <a
            className="td-icon-btn"
            href={href({ month: previous })}
            aria-label={t('previousMonth')}
            onClick={(e) => {
              if (!plainClick(e)) return;
              e.preventDefault();
              onMonth(previous);
            }}
          >
            <span aria-hidden="true">‹</span>
          </a>
        ) : (
          <span className="td-icon-btn td-icon-btn--off" aria-hidden="true">
            ‹
          </span>
        )}
        <h3 className="td-calendar-title" aria-live="polite" id="td-month-label">
          {formatMonth(t, month)}
        </h3>
        <a
          className="td-icon-btn"
          href={href({ month: next })}
          aria-label={t('nextMonth')}
          onClick={(e) => {
            if (!plainClick(e)) return;
            e.preventDefault();
            onMonth(next);
          }}
        >
          <span aria-hidden="true">›</span>
        </a>
      </div>
      <table className="td-calendar-grid" aria-labelledby="td-month-label">
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
                const label = formatLongDate(t, date);
                const className = `td-day td-day--${state}${selected === date ? ' td-day--selected' : ''}`;
                return (
                  <td key={j}>
                    {state === 'available' ? (
                      <a
                        className={className}
                        href={href({ date })}
                        aria-current={selected === date ? 'date' : undefined}
                        aria-label={t('dayAvailable', { label, seats: info!.seats_left })}
                        data-date={date}
                        onClick={(e) => {
                          if (!plainClick(e)) return;
                          e.preventDefault();
                          onSelect(date);
                        }}
                      >
                        {Number(date.slice(8))}
                      </a>
                    ) : (
                      <span className={className} data-date={date}>
                        <span aria-hidden="true">{Number(date.slice(8))}</span>
                        <span className="td-sr-only">{state === 'sold_out' ? t('daySoldOut', { label }) : t('dayUnavailable', { label })}</span>
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="td-legend">
        <span className="td-legend-item">
          <span className="td-swatch td-swatch--available" aria-hidden="true" /> {t('legendAvailable')}
        </span>
        <span className="td-legend-item">
          <span className="td-swatch td-swatch--sold_out" aria-hidden="true" /> {t('legendSoldOut')}
        </span>
      </p>
      {!loading && !anyAvailable && <p className="td-muted">{t('noDatesThisMonth')}</p>}
    </div>
  );
}
