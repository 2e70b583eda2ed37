import { ActionIcon, Group, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useCommonT } from '../i18n/common';
import { formatDatePattern } from '../lib/dates';

/** A month grid (Monday first) whose days show what `render` returns and can be picked. */
export function MonthCalendar({
  month,
  onMonth,
  selected,
  onSelect,
  render,
  color,
}: {
  month: string; // YYYY-MM
  onMonth: (month: string) => void;
  selected?: string | null;
  onSelect: (date: string) => void;
  render: (date: string) => ReactNode;
  color: (date: string) => string | undefined;
}) {
  const t = useCommonT();
  const first = dayjs(`${month}-01`);
  // Monday first: 1 January 2024 was a Monday.
  const weekdays = Array.from({ length: 7 }, (_, i) => formatDatePattern(dayjs('2024-01-01').add(i, 'day'), 'ddd'));
  const lead = (first.day() + 6) % 7;
  const days = Array.from({ length: first.daysInMonth() }, (_, i) => first.add(i, 'day').format('YYYY-MM-DD'));
  return (
    <div role="group" aria-label={t('calendar.label')}>
      <Group justify="space-between" mb="xs">
        <ActionIcon variant="subtle" aria-label={t('calendar.previous')} onClick={() => onMonth(first.subtract(1, 'month').format('YYYY-MM'))}>
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Text fw={600}>{formatDatePattern(first, 'MMMM YYYY')}</Text>
        <ActionIcon variant="subtle" aria-label={t('calendar.next')} onClick={() => onMonth(first.add(1, 'month').format('YYYY-MM'))}>
          <IconChevronRight size={18} />
        </ActionIcon>
      </Group>
      <SimpleGrid cols={7} spacing={4}>
        {weekdays.map((d) => (
          <Text key={d} size="xs" c="dimmed" ta="center">
            {d}
          </Text>
        ))}
        {Array.from({ length: lead }, (_, i) => (
          <div key={`lead-${i}`} />
        ))}
        {days.map((date) => {
          const bg = color(date);
          return (
            <UnstyledButton
              key={date}
              aria-label={date}
              aria-pressed={selected === date}
              onClick={() => onSelect(date)}
              p={6}
              style={{
                borderRadius: 6,
                minHeight: 54,
                background: bg ? `var(--mantine-color-${bg}-light)` : undefined,
                outline: selected === date ? '2px solid var(--mantine-primary-color-filled)' : undefined,
              }}
            >
              <Text size="sm" fw={500}>
                {Number(date.slice(8))}
              </Text>
              {render(date)}
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    </div>
  );
}
