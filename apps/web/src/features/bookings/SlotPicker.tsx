import { Button, Card, Group, Text } from '@mantine/core';
import { seatsForSale, type TSlot } from '@tourdesk/contracts';
import { useMemo } from 'react';
import { MonthCalendar } from '../../shared/components/MonthCalendar';
import { clock } from '../../shared/lib/dates';
import { useBookingsT } from './texts';

export const STATUS_COLOR: Record<TSlot['status'], string> = { available: 'green', limited: 'orange', sold_out: 'red', closed: 'gray' };

/**
 * A month of an offer's departures (each day coloured by what is left, with its seats) and the
 * chosen day's times: the counter's way to pick a departure, for the organisation's own offers
 * and for a partner's.
 */
export function SlotPicker({
  slots,
  month,
  onMonth,
  date,
  onDate,
  slotId,
  onSlot,
}: {
  slots: TSlot[] | undefined;
  month: string;
  onMonth: (month: string) => void;
  date: string | null;
  onDate: (date: string) => void;
  slotId: string | null;
  onSlot: (id: string) => void;
}) {
  const tr = useBookingsT();
  const byDay = useMemo(() => {
    const map = new Map<string, TSlot[]>();
    for (const s of slots ?? []) map.set(s.local_date, [...(map.get(s.local_date) ?? []), s]);
    return map;
  }, [slots]);
  const dayStatus = (d: string) => {
    const list = byDay.get(d);
    if (!list?.length) return undefined;
    if (list.some((s) => s.status === 'available')) return 'green';
    if (list.some((s) => s.status === 'limited')) return 'orange';
    return list.every((s) => s.status === 'closed') ? 'gray' : 'red';
  };
  return (
    <>
      <Card withBorder padding="md">
        <MonthCalendar
          month={month}
          onMonth={onMonth}
          selected={date}
          onSelect={onDate}
          color={dayStatus}
          render={(d) => {
            const left = (byDay.get(d) ?? []).reduce((sum, s) => sum + seatsForSale(s), 0);
            return byDay.get(d)?.length ? (
              <Text size="xs" c="dimmed">
                {tr('checkout.left', { remaining: left })}
              </Text>
            ) : null;
          }}
        />
      </Card>
      {date && (
        <Group gap="xs" aria-label={tr('checkout.times')}>
          {(byDay.get(date) ?? []).map((s) => (
            <Button key={s.id} variant={slotId === s.id ? 'filled' : 'light'} color={STATUS_COLOR[s.status]} disabled={!s.bookable} onClick={() => onSlot(s.id)}>
              {tr('checkout.timeLeft', { time: clock(s.local_time), remaining: s.remaining })}
            </Button>
          ))}
          {(byDay.get(date) ?? []).length === 0 && <Text c="dimmed">{tr('checkout.noSlot')}</Text>}
        </Group>
      )}
    </>
  );
}
