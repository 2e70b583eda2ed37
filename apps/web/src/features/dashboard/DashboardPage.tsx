import { Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { TSystemNotification } from '@tourdesk/contracts';
import { formatDisplayDate } from '../../shared/lib/dates';
import { useGetHealthQuery, useGetSystemNotificationsQuery } from './api';

const LEVEL_COLOR: Record<TSystemNotification['level'], string> = { info: 'blue', warning: 'orange', critical: 'red' };

function StatusCard() {
  const { data, isLoading, isError } = useGetHealthQuery();
  const ok = data?.status === 'ok';
  return (
    <Card withBorder padding="lg" aria-label="Platform status">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Platform status</Text>
        {isLoading ? (
          <Skeleton h={20} w={80} />
        ) : (
          <Badge color={ok ? 'green' : 'red'} variant="light">
            {ok ? 'All systems go' : isError ? 'Unreachable' : 'Degraded'}
          </Badge>
        )}
      </Group>
      {data && (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            Database: PostgreSQL {data.database.version ?? '?'} (
            {data.database.engine === 'pglite' ? 'embedded' : 'server'})
            {data.database.latency_ms !== null && `, ${data.database.latency_ms} ms`}
          </Text>
          <Text size="sm" c="dimmed">
            Version {data.version}
          </Text>
        </Stack>
      )}
    </Card>
  );
}

function Announcements() {
  const { data, isLoading } = useGetSystemNotificationsQuery({ page: 1, page_size: 5 });
  return (
    <Card withBorder padding="lg" aria-label="Announcements">
      <Text fw={600} mb="sm">
        Announcements
      </Text>
      {isLoading && <Skeleton h={60} />}
      {data?.results.length === 0 && <Text c="dimmed">Nothing new.</Text>}
      <Stack gap="md">
        {data?.results.map((n) => (
          <div key={n.id}>
            <Group gap="xs" mb={2}>
              <Badge size="xs" color={LEVEL_COLOR[n.level]} variant="light">
                {n.level}
              </Badge>
              <Text size="xs" c="dimmed">
                {formatDisplayDate(n.published_at)}
              </Text>
            </Group>
            <Text fw={500}>{n.title}</Text>
            <Text size="sm" c="dimmed">
              {n.body}
            </Text>
          </div>
        ))}
      </Stack>
    </Card>
  );
}

export default function DashboardPage() {
  return (
    <Stack gap="lg">
      <Title order={2}>Dashboard</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <StatusCard />
        <Announcements />
      </SimpleGrid>
    </Stack>
  );
}
