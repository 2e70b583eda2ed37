import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { api } from '../../shared/api/api';
import { useLogoutMutation } from '../../shared/api/session-api';
import { clearUser } from '../../shared/auth/auth-slice';
import { useHost } from '../../shared/auth/host-context';
import { forgetDevice } from '../../shared/auth/offline-session';
import { markSsoChecked } from '../../shared/auth/sso';
import { useAppDispatch, useAppSelector } from '../../shared/hooks/store';

export function UserMenu() {
  const user = useAppSelector((s) => s.auth.user);
  const { config } = useHost();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  if (!user) return null;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email || '';
  const initials = name
    .split(/\s+/)
    .map((p) => p[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();

  const signOut = async () => {
    await logout();
    forgetDevice();
    dispatch(clearUser());
    dispatch(api.util.resetApiState());
    markSsoChecked();
    // Forget this organisation on the bare host too, then come back to this host's sign-in page.
    const next = `${window.location.origin}/auth/login`;
    window.location.assign(`${config.public_url}/api/sso/forget/?next=${encodeURIComponent(next)}`);
  };

  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar radius="xl" size="md" color="blue">
              {initials}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm">
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item leftSection={<IconUserCircle size={16} />} onClick={() => navigate('/profile')}>
          Profile
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={signOut}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
