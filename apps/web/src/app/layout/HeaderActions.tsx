import { Group } from '@mantine/core';
import { NotificationsBell } from './NotificationsBell';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';

/** The header's right side in the back office: notifications, the theme switch and the user's menu. */
export default function HeaderActions() {
  return (
    <Group gap="sm" wrap="nowrap">
      <NotificationsBell />
      <ThemeToggle />
      <UserMenu />
    </Group>
  );
}
