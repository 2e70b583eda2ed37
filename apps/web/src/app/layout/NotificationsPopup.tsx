import { Loader, Popover, Text } from '@mantine/core';
import { useShellT } from './texts';
import { lazy, Suspense, useState } from 'react';
import { bellApi, BellButton } from './bell-parts';

const NotificationsList = lazy(() => import('./NotificationsList'));

/** The bell's popup, loaded when the bell is first pressed (see `NotificationsBell`). */
export default function NotificationsPopup({ defaultOpened }: { defaultOpened?: boolean }) {
  const t = useShellT();
  const [opened, setOpened] = useState(Boolean(defaultOpened));
  const { data: unread } = bellApi.useNotificationsUnreadQuery(undefined, { pollingInterval: 300_000 });
  const count = unread?.unread ?? 0;
  const { data: list } = bellApi.useBellNotificationsQuery(undefined, { skip: !opened });
  const [seen] = bellApi.useNotificationsSeenMutation();
  const open = (next: boolean) => {
    setOpened(next);
    if (next && count > 0) void seen();
  };
  return (
    <Popover opened={opened} onChange={open} position="bottom-end" width={360} shadow="md" withinPortal>
      <Popover.Target>
        <BellButton count={count} opened={opened} onClick={() => open(!opened)} />
      </Popover.Target>
      {/* A dialog named by the bell that opens it (Mantine links the two). */}
      <Popover.Dropdown p={0}>
        <Text fw={600} px="md" pt="sm" pb="xs">
          {t('notifications.title')}
        </Text>
        {/* Its own chunk: the list (and the date formatting it needs) loads when the bell is opened. */}
        <Suspense fallback={<Loader size="sm" m="md" />}>
          {list && <NotificationsList list={list} unread={unread} count={count} />}
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
