import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of every sign-in page: a title, an optional line under it, the form, and links. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Center mih="calc(100vh - 120px)" py="xl">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440}>
        <Stack gap="xs" mb="lg">
          <Title order={2}>{title}</Title>
          {subtitle && <Text c="dimmed" size="sm">{subtitle}</Text>}
        </Stack>
        {children}
        {footer && (
          <Stack gap={4} mt="lg" align="center">
            {footer}
          </Stack>
        )}
      </Paper>
    </Center>
  );
}

export const AuthLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <Anchor component={Link} to={to} size="sm">
    {children}
  </Anchor>
);
