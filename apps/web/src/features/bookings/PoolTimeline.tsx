import { Badge, Box, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { TPoolDay, TPoolOfDay } from '@tourdesk/contracts';
import { formatTime } from '../../shared/lib/dates';
import { useCapacityT } from './capacity-texts';

/**
 * Each resource pool's use over the day (issue 34): one row per departure of every offer that
 * takes from it, drawn as a bar over its window (the departure widened by the pool's buffers) on
 * the day's hours, with what it takes and the most of the pool in use over its window.
 */
function PoolRow({ pool, zone }: { pool: TPoolOfDay; zone: string }) {
  const t = useCapacityT();
  const times = pool.departures.flatMap((d) => [Date.parse(d.window_from), Date.parse(d.window_to)]);
  const start = Math.min(...times);
  const span = Math.max(Math.max(...times) - start, 1);
  const at = (iso: string) => ((Date.parse(iso) - start) / span) * 100;
  return (
    <Box component="section" aria-label={t('pool.of', { name: pool.name })} data-testid="pool-timeline">
      <Group justify="space-between" mb={4} wrap="wrap">
        <Text fw={600} size="sm">
          {pool.name}
        </Text>
        <Text size="xs" c="dimmed">
          {t('pool.stock', { stock: pool.stock, before: pool.buffer_before_minutes, after: pool.buffer_after_minutes })}
        </Text>
      </Group>
      {pool.departures.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('pool.unused')}
        </Text>
      ) : (
        <Stack gap={6}>
          {pool.departures.map((d) => {
            const full = d.peak >= pool.stock;
            const label = t('pool.departure', { time: formatTime(d.starts_at, zone), title: d.experience_title, used: d.used, peak: d.peak, stock: pool.stock });
            return (
              <Box key={d.slot} pos="relative" h={26} data-testid="pool-departure" style={{ borderRadius: 4, background: 'var(--mantine-color-default-hover)' }}>
                <Tooltip label={t('pool.window', { from: formatTime(d.window_from, zone), to: formatTime(d.window_to, zone) })}>
                  <Box
                    pos="absolute"
                    top={0}
                    bottom={0}
                    left={`${at(d.window_from)}%`}
                    w={`${Math.max(at(d.window_to) - at(d.window_from), 2)}%`}
                    style={{ borderRadius: 4, background: full ? 'var(--mantine-color-red-light)' : 'var(--mantine-color-blue-light)', border: `1px solid var(--mantine-color-${full ? 'red' : 'blue'}-light-color)` }}
                  />
                </Tooltip>
                <Text pos="relative" size="xs" px={6} lh="26px" truncate="end">
                  {label}
                </Text>
              </Box>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}

export function PoolTimeline({ day }: { day: TPoolDay | undefined }) {
  const t = useCapacityT();
  if (!day || day.pools.length === 0) return null;
  return (
    <Card withBorder padding="md" aria-label={t('pool.title')}>
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('pool.title')}</Title>
        {day.limited.length > 0 && (
          <Badge variant="light" color="grape">
            {t('pool.limitedCount', { count: day.limited.length })}
          </Badge>
        )}
      </Group>
      <Stack gap="md">
        {day.pools.map((p) => (
          <PoolRow key={p.id} pool={p} zone={day.time_zone} />
        ))}
      </Stack>
    </Card>
  );
}
