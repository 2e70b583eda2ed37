import { ActionIcon, Badge, Group, Indicator, Popover, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import type { TNotificationsUnread, TSystemNotification, TSystemNotificationList } from '@tourdesk/contracts';
import { useState } from 'react';
import { api } from '../../shared/api/api';
import { formatDisplayDate } from '../../shared/lib/dates';

const LEVEL_COLOR: Record<TSystemNotification['level'], string> = { info: 'blue', warning: 'orange', critical: 'red' };

const bellApi = api.injectEndpoints({
  endpoints: (build) => ({
    notificationsUnread: build.query<TNotificationsUnread, void>({ query: () => 'system-notifications/unread/', providesTags: ['SystemNotification'] }),
    bellNotifications: build.query<TSystemNotificationList, void>({ query: () => ({ url: 'system-notifications/', params: { page_size: 10 } }), providesTags: ['SystemNotification'] }),
    notificationsSeen: build.mutation<void, void>({
      query: () => ({ url: 'system-notifications/seen/', method: 'POST', body: {} }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const patch = dispatch(bellApi.util.updateQueryData('notificationsUnread', undefined, (d) => ({ ...d, unread: 0 })));
        queryFulfilled.catch(patch.undo);
      },
    }),
  }),
});

/**
 * The platform's announcements (the spec's system notifications): a bell with the number the user
 * has not opened yet; opening it lists the latest and marks them seen.
 */
export function NotificationsBell() {
  const [opened, setOpened] = useState(false);
  const { data: unread } = bellApi.useNotificationsUnreadQuery(undefined, { pollingInterval: 300_000 });
  const { data: list } = bellApi.useBellNotificationsQuery(undefined, { skip: !opened });
  const [seen] = bellApi.useNotificationsSeenMutation();
  const count = unread?.unread ?? 0;
  const open = (next: boolean) => {
    setOpened(next);
    if (next && count > 0) void seen();
  };
  const label = count ? `Notifications, ${count} new` : 'Notifications';
  return (
    <Popover opened={opened} onChange={open} position="bottom-end" width={360} shadow="md" withinPortal>
      <Popover.Target>
        <Tooltip label={label} disabled={opened}>
          <Indicator label={count > 9 ? '9+' : count} size={16} disabled={count === 0} color="red" offset={4}>
            <ActionIcon variant="default" size="lg" aria-label={label} onClick={() => open(!opened)}>
              <IconBell size={18} />
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications list">
        <Text fw={600} px="md" pt="sm" pb="xs">
          Notifications
        </Text>
        <ScrollArea.Autosize mah={420}>
          <Stack gap="md" px="md" pb="md">
            {list?.results.length === 0 && (
              <Text c="dimmed" size="sm">
                Nothing new.
              </Text>
            )}
            {list?.results.map((n) => {
              const isNew = unread?.seen_at ? n.published_at > unread.seen_at : count > 0;
              return (
                <div key={n.id} data-testid="notification">
                  <Group gap="xs" mb={2}>
                    <Badge size="xs" color={LEVEL_COLOR[n.level]} variant="light">
                      {n.level}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {formatDisplayDate(n.published_at)}
                    </Text>
                    {isNew && (
                      <Badge size="xs" color="red" variant="filled">
                        new
                      </Badge>
                    )}
                  </Group>
                  <Text fw={500} size="sm">
                    {n.title}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {n.body}
                  </Text>
                </div>
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
