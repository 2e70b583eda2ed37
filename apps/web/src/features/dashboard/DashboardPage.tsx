import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { TSystemNotification } from '@tourdesk/contracts';
import { Link } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDisplayDate } from '../../shared/lib/dates';
import { hasFeatures, hasPermissions } from '../../shared/lib/permissions';
import { useGetActiveStoresQuery, useGetHealthQuery, useGetSystemNotificationsQuery } from './api';

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

/** Where customers book online: the organisation's active stores, each a link to its public page. */
function WebStores() {
  const { data, isLoading } = useGetActiveStoresQuery();
  return (
    <Card withBorder padding="lg" aria-label="Your web stores">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Your web stores</Text>
        <Anchor component={Link} to="/sales/stores" size="sm">
          All stores
        </Anchor>
      </Group>
      {isLoading && <Skeleton h={40} />}
      {data?.results.length === 0 && (
        <Stack gap="xs" align="flex-start">
          <Text c="dimmed" size="sm">
            No store is open yet: open one and customers can book online.
          </Text>
          <Button component={Link} to="/sales/stores" size="xs" variant="light">
            Create a store
          </Button>
        </Stack>
      )}
      <Stack gap="sm">
        {data?.results.map((s) => (
          <Group key={s.id} justify="space-between" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Text fw={500} truncate>
                {s.name}
              </Text>
              <Text size="xs" c="dimmed">
                {s.experience_count} offer{s.experience_count === 1 ? '' : 's'}
              </Text>
            </div>
            <Button component="a" href={s.url} target="_blank" rel="noopener" size="xs" variant="light" rightSection={<IconExternalLink size={14} />}>
              Open
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

export default function DashboardPage() {
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const stores = hasPermissions(user, appInfo, ['Manage stores']) && hasFeatures(user, ['stores']);
  return (
    <Stack gap="lg">
      <Title order={2}>Dashboard</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {stores && <WebStores />}
        <StatusCard />
        <Announcements />
      </SimpleGrid>
    </Stack>
  );
}
