import { bellApi, BellButton, useUnreadCount } from './bell-parts';
import { useOnDemand } from './on-demand';

/**
 * The platform's announcements (the spec's system notifications): a bell with the number the user
 * has not opened yet; opening it lists the latest and marks them seen. The popup's code loads when
 * the bell is first pressed (`useOnDemand`).
 */
export function NotificationsBell() {
  const count = useUnreadCount();
  const [seen] = bellApi.useNotificationsSeenMutation();
  const { triggerProps, render } = useOnDemand(() => import('./NotificationsPopup'));
  const press = () => {
    triggerProps.onClick();
    if (count > 0) void seen();
  };
  return render(<BellButton count={count} {...triggerProps} aria-haspopup="dialog" onClick={press} />, {});
}
