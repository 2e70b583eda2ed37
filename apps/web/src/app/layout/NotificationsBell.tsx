import { ActionIcon, Indicator, Loader, Popover, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import type { TNotificationsUnread, TSystemNotificationList } from '@tourdesk/contracts';
import { lazy, Suspense, useState } from 'react';
import { api } from '../../shared/api/api';

const NotificationsList = lazy(() => import('./NotificationsList'));

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
        {/* Its own chunk: the list (and the date formatting it needs) loads when the bell is opened. */}
        <Suspense fallback={<Loader size="sm" m="md" />}>
          {list && <NotificationsList list={list} unread={unread} count={count} />}
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
