import { Menu } from '@mantine/core';
import { useShellT } from './texts';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { api } from '../../shared/api/api';
import { useLogoutMutation } from '../../shared/api/session-api';
import { clearUser } from '../../shared/auth/auth-slice';
import { useHost } from '../../shared/auth/host-context';
import { forgetDevice } from '../../shared/auth/offline-session';
import { markSsoChecked } from '../../shared/auth/sso';
import { useAppDispatch, useAppSelector } from '../../shared/hooks/store';
import { AccountButton } from './AccountButton';

/** The account menu itself, loaded when the account button is first pressed (see `UserMenu`). */
export default function UserMenuPopup({ defaultOpened }: { defaultOpened?: boolean }) {
  const t = useShellT();
  const email = useAppSelector((s) => s.auth.user?.email);
  const { config } = useHost();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();

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
    <Menu position="bottom-end" width={240} withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <AccountButton />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{email}</Menu.Label>
        <Menu.Item leftSection={<IconUserCircle size={16} />} onClick={() => navigate('/profile')}>
          {t('account.profile')}
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={signOut}>
          {t('account.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
