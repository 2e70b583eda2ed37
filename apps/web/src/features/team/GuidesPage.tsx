import { Badge, Button, CloseButton, Group, Paper, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { DateField } from '../../shared/components/DateField';
import { useToday } from '../../shared/hooks/use-today';
import { notifySuccess } from '../../shared/lib/toast';
import { useAddDayOffMutation, useAutoAssignMutation, useGuideMembersQuery, useRemoveDayOffMutation, useSetGuidesMutation } from './api';
import { useTeamT } from './texts';

/** /settings/team/guides (issue 34): who guides, their days off, and assigning the coming week automatically. */
export default function GuidesPage() {
  const t = useTeamT();
  const today = useToday();
  const { data } = useGuideMembersQuery();
  const [setGuides] = useSetGuidesMutation();
  const [addDayOff, adding] = useAddDayOffMutation();
  const [removeDayOff] = useRemoveDayOffMutation();
  const [autoAssign, assigning] = useAutoAssignMutation();
  const [who, setWho] = useState<string | null>(null);
  const [off, setOff] = useState({ from: '', to: '' });
  const [range, setRange] = useState({ from: today, to: dayjs(today).add(6, 'day').format('YYYY-MM-DD') });
  const members = data?.results ?? [];
  const guides = members.filter((m) => m.guides);
  return (
    <Stack gap="md">
      <Title order={2}>{t('guides.title')}</Title>
      <Text size="sm">{t('guides.intro')}</Text>
      <Table striped aria-label={t('guides.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('guides.member')}</Table.Th>
            <Table.Th>{t('guides.guides')}</Table.Th>
            <Table.Th>{t('guides.daysOff')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.name}</Table.Td>
              <Table.Td>
                <Switch checked={m.guides} aria-label={t('guides.guidesLabel', { name: m.name })} onChange={(e) => void setGuides({ id: m.id, guides: e.currentTarget.checked })} />
              </Table.Td>
              <Table.Td>
                {m.days_off.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('guides.noDaysOff')}
                  </Text>
                ) : (
                  <Group gap={4}>
                    {m.days_off.map((d) => (
                      <Badge key={d.id} variant="light" tt="none" rightSection={<CloseButton size="xs" aria-label={t('guides.removeDayOff', { from: d.starts_on, to: d.ends_on })} onClick={() => void removeDayOff({ id: m.id, dayOff: d.id })} />}>
                        {d.starts_on === d.ends_on ? d.starts_on : `${d.starts_on} – ${d.ends_on}`}
                      </Badge>
                    ))}
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Paper withBorder p="md" component="section" aria-label={t('guides.addDayOff')}>
        <Group align="flex-end" gap="sm">
          <Select label={t('guides.addDayOffFor')} data={guides.map((g) => ({ value: g.id, label: g.name }))} value={who} onChange={setWho} w={220} />
          <DateField label={t('guides.from')} value={off.from} onChange={(from) => setOff((o) => ({ from, to: o.to || from }))} />
          <DateField label={t('guides.to')} value={off.to} min={off.from || undefined} onChange={(to) => setOff((o) => ({ ...o, to }))} />
          <Button
            disabled={!who || !off.from || !off.to}
            loading={adding.isLoading}
            onClick={() => who && void addDayOff({ id: who, starts_on: off.from, ends_on: off.to }).unwrap().then(() => setOff({ from: '', to: '' }), () => undefined)}
          >
            {t('guides.addDayOff')}
          </Button>
        </Group>
      </Paper>
      <Paper withBorder p="md" component="section" aria-label={t('guides.auto')}>
        <Group align="flex-end" gap="sm">
          <DateField label={t('guides.from')} value={range.from} onChange={(from) => setRange((r) => ({ ...r, from }))} />
          <DateField label={t('guides.to')} value={range.to} min={range.from} onChange={(to) => setRange((r) => ({ ...r, to }))} />
          <Button
            loading={assigning.isLoading}
            disabled={!range.from || !range.to}
            onClick={() =>
              void autoAssign(range)
                .unwrap()
                .then((r) => notifySuccess(t('guides.autoDone', { count: r.assigned.length, short: r.unstaffed.length })), () => undefined)
            }
          >
            {t('guides.auto')}
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}
