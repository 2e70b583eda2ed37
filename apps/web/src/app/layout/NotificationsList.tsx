import { Badge, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useShellT } from './texts';
import type { TNotificationsUnread, TSystemNotification, TSystemNotificationList } from '@tourdesk/contracts';
import { formatDisplayDate } from '../../shared/lib/dates';

const LEVEL_COLOR: Record<TSystemNotification['level'], string> = { info: 'blue', warning: 'orange', critical: 'red' };

/** The bell's list: the latest announcements, the ones the user had not seen marked new. */
export default function NotificationsList({ list, unread, count }: { list: TSystemNotificationList; unread: TNotificationsUnread | undefined; count: number }) {
  const t = useShellT();
  return (
    <ScrollArea.Autosize mah={420}>
      <Stack gap="md" px="md" pb="md">
        {list.results.length === 0 && (
          <Text c="dimmed" size="sm">
            {t('notifications.none')}
          </Text>
        )}
        {list.results.map((n) => {
          const isNew = unread?.seen_at ? n.published_at > unread.seen_at : count > 0;
          return (
            <div key={n.id} data-testid="notification">
              <Group gap="xs" mb={2}>
                <Badge size="xs" color={LEVEL_COLOR[n.level]} variant="light">
                  {t(`notifications.level.${n.level}`)}
                </Badge>
                <Text size="xs" c="dimmed">
                  {formatDisplayDate(n.published_at)}
                </Text>
                {isNew && (
                  <Badge size="xs" color="red" variant="filled">
                    {t('notifications.new')}
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
  );
}
