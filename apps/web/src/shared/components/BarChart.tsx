import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { formatDatePattern } from '../lib/dates';

export interface Bar {
  /** A day, YYYY-MM-DD. */
  date: string;
  value: number;
}

const HEIGHT = 220;
const TOP = 12;
const BOTTOM = 26;
const TICKS = 4;

/** The smallest "nice" number (1, 2, 2.5, 5 × 10ⁿ) at or above `n`, so the axis reads in round steps. */
function niceStep(n: number) {
  if (n <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= n) return m * power;
  return 10 * power;
}

/**
 * A bar per day, drawn as plain SVG in the theme's colours (light and dark alike), as wide as its
 * box; each bar names its day and value on hover. The table beside it carries the same figures
 * for screen readers, so the picture is one labelled image.
 */
export function BarChart({
  bars,
  format,
  color,
  label,
  minStep = 1,
  empty,
}: {
  bars: Bar[];
  format: (n: number) => string;
  color: string;
  label: string;
  /** The smallest step of the axis: 1 for counts, a whole unit of money (100 cents) for amounts. */
  minStep?: number;
  /** Said across the chart when every bar is zero. */
  empty: string;
}) {
  const { ref, width } = useElementSize();
  const max = Math.max(0, ...bars.map((b) => b.value));
  const step = Math.max(minStep, niceStep(max / TICKS));
  const top = step * TICKS;
  const ticks = Array.from({ length: TICKS + 1 }, (_, i) => i * step);
  const left = Math.min(96, 10 + 7 * Math.max(...ticks.map((t) => format(t).length)));
  const plotW = Math.max(0, width - left - 8);
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = bars.length ? plotW / bars.length : 0;
  const barW = Math.max(1, Math.min(28, slot * 0.7));
  const y = (v: number) => TOP + plotH - (v / top) * plotH;
  // About one date label per 70 pixels, always the first and the last.
  const every = Math.max(1, Math.ceil(bars.length / Math.max(1, Math.floor(plotW / 70))));

  return (
    <Box ref={ref} w="100%" h={HEIGHT}>
      {width > 0 && (
        <svg width={width} height={HEIGHT} role="img" aria-label={label} style={{ display: 'block', fontSize: 11, fontFamily: 'var(--mantine-font-family)' }}>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={left} x2={width - 8} y1={y(t)} y2={y(t)} stroke="var(--mantine-color-default-border)" strokeDasharray={t === 0 ? undefined : '3 3'} />
              <text x={left - 6} y={y(t)} dy="0.32em" textAnchor="end" fill="var(--mantine-color-dimmed)">
                {format(t)}
              </text>
            </g>
          ))}
          {max === 0 && (
            <text x={left + plotW / 2} y={TOP + plotH / 2} textAnchor="middle" fill="var(--mantine-color-dimmed)" style={{ fontSize: 13 }}>
              {empty}
            </text>
          )}
          {bars.map((b, i) => {
            const x = left + i * slot + (slot - barW) / 2;
            const h = y(0) - y(b.value);
            const last = bars.length - 1;
            // Regular labels, none so close to the last one that they would overlap it.
            const showLabel = i === last || (i % every === 0 && i + every <= last);
            return (
              <g key={b.date}>
                <rect x={left + i * slot} y={TOP} width={slot} height={plotH} fill="transparent">
                  <title>{`${formatDatePattern(b.date, 'D MMM YYYY')}: ${format(b.value)}`}</title>
                </rect>
                {b.value > 0 && (
                  <rect x={x} y={y(b.value)} width={barW} height={Math.max(1, h)} rx={Math.min(3, barW / 3)} fill={color} pointerEvents="none" />
                )}
                {showLabel && (
                  // The last label ends at the right edge rather than running over it.
                  <text
                    x={i === last && bars.length > 1 ? left + plotW : left + i * slot + slot / 2}
                    y={HEIGHT - 8}
                    textAnchor={i === last && bars.length > 1 ? 'end' : 'middle'}
                    fill="var(--mantine-color-dimmed)"
                  >
                    {formatDatePattern(b.date, 'D MMM')}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
    </Box>
  );
}
