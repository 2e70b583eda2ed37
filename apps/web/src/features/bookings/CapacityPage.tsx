import { Badge, Card, Group, NumberInput, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { EmptyRow } from '../../shared/components/ListParts';
import { MonthCalendar } from '../../shared/components/MonthCalendar';
import { notifySuccess } from '../../shared/lib/toast';
import { useCapacityByDateQuery, useCapacityCalendarQuery, useUpdateSlotMutation } from './api';

/** /capacity/overview: a month of seats, and one day's slots to edit. */
export default function CapacityPage() {
  const [month, setMonth] = useState(dayjs().format('YYYY-MM'));
  const [date, setDate] = useState(dayjs().format('YYYY-MM-DD'));
  const from = `${month}-01`;
  const to = dayjs(from).endOf('month').format('YYYY-MM-DD');
  const { data: days } = useCapacityCalendarQuery({ from, to });
  const { data: slots } = useCapacityByDateQuery(date);
  const [update] = useUpdateSlotMutation();
  const byDate = new Map((days ?? []).map((d) => [d.date, d]));
  return (
    <Stack gap="md">
      <Title order={2}>Capacity</Title>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card withBorder padding="md">
          <MonthCalendar
            month={month}
            onMonth={setMonth}
            selected={date}
            onSelect={setDate}
            color={(d) => {
              const day = byDate.get(d);
              if (!day) return undefined;
              if (day.remaining === 0) return 'red';
              return day.remaining <= day.capacity * 0.2 ? 'orange' : 'green';
            }}
            render={(d) => {
              const day = byDate.get(d);
              return day ? (
                <Text size="xs" c="dimmed">
                  {day.remaining}/{day.capacity}
                </Text>
              ) : null;
            }}
          />
        </Card>
        <Card withBorder padding="md" aria-label="Slots of the day">
          <Title order={4} mb="sm">
            {dayjs(date).format('dddd, DD. MMMM YYYY')}
          </Title>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Offer</Table.Th>
                <Table.Th ta="right">Booked / held</Table.Th>
                <Table.Th>Capacity</Table.Th>
                <Table.Th>Open</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {slots?.length === 0 && <EmptyRow colSpan={5}>No time slot on this day.</EmptyRow>}
              {slots?.map((s) => (
                <Table.Tr key={s.id} data-testid="capacity-slot">
                  <Table.Td>{s.local_time}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.experience_title}</Text>
                    <Badge size="xs" variant="light" color={s.remaining === 0 ? 'red' : 'green'}>
                      {s.remaining} left
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    {s.booked} / {s.held}
                  </Table.Td>
                  <Table.Td w={110}>
                    <NumberInput
                      aria-label={`Capacity at ${s.local_time}`}
                      min={s.booked + s.held}
                      defaultValue={s.capacity}
                      onBlur={async (e) => {
                        const capacity = Number(e.currentTarget.value);
                        if (!Number.isInteger(capacity) || capacity === s.capacity) return;
                        if (!('error' in (await update({ id: s.id, capacity })))) notifySuccess(`Capacity at ${s.local_time} is now ${capacity}.`);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`Open at ${s.local_time}`}
                      checked={!s.closed}
                      onChange={async (e) => {
                        const closed = !e.currentTarget.checked;
                        if (!('error' in (await update({ id: s.id, closed })))) notifySuccess(closed ? `${s.local_time} closed.` : `${s.local_time} reopened.`);
                      }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group mt="sm">
            <Text size="xs" c="dimmed">
              Capacity can be lowered down to what is booked and held.
            </Text>
          </Group>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
