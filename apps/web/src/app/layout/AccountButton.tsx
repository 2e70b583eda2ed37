import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { useShellT } from './texts';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { useAppSelector } from '../../shared/hooks/store';

/** The user's initials and name: what the account menu opens from. */
export const AccountButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(function AccountButton(props, ref) {
  const t = useShellT();
  const user = useAppSelector((s) => s.auth.user);
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ') || user?.email || '';
  const initials = name
    .split(/\s+/)
    .map((p) => p[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <UnstyledButton ref={ref} aria-label={t('account.menu')} aria-haspopup="menu" {...props}>
      <Group gap="xs" wrap="nowrap">
        <Avatar radius="xl" size="md" color="blue">
          {initials}
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="sm">
          {name}
        </Text>
      </Group>
    </UnstyledButton>
  );
});
