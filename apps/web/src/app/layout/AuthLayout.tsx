import { Box, Group } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageSpinner } from '../../shared/components/FullPageSpinner';
import { Brand } from './Brand';
import { ThemeToggle } from './ThemeToggle';

/** The frame of the sign-in pages: logo, theme switch, and the page. */
export function AuthLayout() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Group justify="space-between" px="lg" py="md">
        <Group gap="sm">
          <Brand />
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
