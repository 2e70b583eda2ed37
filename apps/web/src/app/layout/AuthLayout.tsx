import { Box, Group, Text, ThemeIcon } from '@mantine/core';
import { IconMountain } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageSpinner } from '../../shared/components/FullPageSpinner';
import { ThemeToggle } from './ThemeToggle';

/** The frame of the sign-in pages: logo, theme switch, and the page. */
export function AuthLayout() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group justify="space-between" px="lg" py="md">
        <Group gap="sm">
          <ThemeIcon size="lg" radius="md" variant="filled" aria-hidden>
            <IconMountain size={20} />
          </ThemeIcon>
          <Text fw={700} size="lg">
            Tourdesk
          </Text>
        </Group>
        <ThemeToggle />
      </Group>
      <Box px="md">
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
