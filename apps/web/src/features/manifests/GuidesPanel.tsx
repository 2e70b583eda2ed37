import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useCan } from '../../shared/hooks/use-can';
import { notifySuccess } from '../../shared/lib/toast';
import { useAssignGuideMutation, useDepartureGuidesQuery, useRemoveGuideMutation } from './api';
import { useManifestsT } from './texts';

/**
 * A departure's guides (issue 34), for whoever schedules departures (Manage experiences): who
 * guides it, what they can take when its offer needs a guide per so many guests, and a guide to
 * add among those free then (not off that day, on no overlapping departure). What the API refuses
 * (an overlap, a day off, taking away a guide the bookings need) arrives as the error toast.
 */
export function GuidesPanel({ slot }: { slot: string }) {
  const t = useManifestsT();
  const manage = useCan(['Manage experiences'], ['bookings']);
  const { data } = useDepartureGuidesQuery(slot, { skip: !manage });
  const [assign, assigning] = useAssignGuideMutation();
  const [remove, removing] = useRemoveGuideMutation();
  const [choice, setChoice] = useState<string | null>(null);
  if (!manage || !data) return null;
  const nameOf = (id: string) => data.available.find((g) => g.id === id)?.name ?? '';
  return (
    <Paper withBorder p="md" className="no-print" aria-labelledby="guides-title" component="section" data-testid="guides">
      <Stack gap="sm">
        <Title order={3} id="guides-title">
          {t('guides.title')}
        </Title>
        {data.guests_per_guide !== null && <Text size="sm">{t('guides.seats', { per: data.guests_per_guide, seats: data.guide_seats ?? 0, taken: data.booked + data.held })}</Text>}
        {data.guides.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('guides.none')}
          </Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.guides.map((g) => (
              <Group key={g.id} component="li" gap="sm" data-testid="assigned-guide">
                <Text size="sm" fw={500}>
                  {g.name}
                </Text>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  aria-label={t('guides.removeLabel', { name: g.name })}
                  loading={removing.isLoading && removing.originalArgs?.guide === g.id}
                  onClick={() => void remove({ slot, guide: g.id }).unwrap().then(() => notifySuccess(t('guides.removed', { name: g.name })), () => undefined)}
                >
                  {t('guides.remove')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        <Group align="flex-end" gap="sm">
          <Select
            label={t('guides.choose')}
            placeholder={data.available.length === 0 ? t('guides.nobodyFree') : undefined}
            data={data.available.map((g) => ({ value: g.id, label: g.name }))}
            value={choice}
            onChange={setChoice}
            disabled={data.available.length === 0}
            w={260}
          />
          <Button
            disabled={!choice}
            loading={assigning.isLoading}
            onClick={() => {
              if (!choice) return;
              const name = nameOf(choice);
              void assign({ slot, guide: choice })
                .unwrap()
                .then(() => {
                  setChoice(null);
                  notifySuccess(t('guides.assigned', { name }));
                }, () => undefined);
            }}
          >
            {t('guides.assign')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
