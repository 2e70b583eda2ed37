/** What the bell and its popup share (the popup loads on demand): the calls, the unread count, the button. */
import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { useShellT } from './texts';
import { IconBell } from '@tabler/icons-react';
import type { TNotificationsUnread, TSystemNotificationList } from '@tourdesk/contracts';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { api } from '../../shared/api/api';

export const bellApi = api.injectEndpoints({
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

/** The unread count, polled every five minutes; the bell and its popup read the same cache entry. */
export const useUnreadCount = () => bellApi.useNotificationsUnreadQuery(undefined, { pollingInterval: 300_000 }).data?.unread ?? 0;

/** The bell with the number not yet opened: what the notifications list opens from. */
export const BellButton = forwardRef<HTMLDivElement, { count: number; opened?: boolean } & ComponentPropsWithoutRef<'button'>>(function BellButton({ count, opened = false, ...props }, ref) {
  const t = useShellT();
  const label = count ? t('notifications.titleNew', { count }) : t('notifications.title');
  return (
    <Tooltip label={label} disabled={opened}>
      <Indicator ref={ref} label={count > 9 ? '9+' : count} size={16} disabled={count === 0} color="red" offset={4}>
        <ActionIcon variant="default" size="lg" aria-label={label} {...props}>
          <IconBell size={18} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
});

