import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

export interface ErrorPanelProps {
  /** The headline; the spec's default is "An error occured!" (its spelling). */
  message?: string;
  /** An optional secondary, more formal message. */
  formalMessage?: string;
  /** Show the default logo (true) or a custom one. */
  logo?: boolean | ReactNode;
  /** Where the action button navigates; without it there is no button. */
  actionPath?: string;
  actionLabel?: string;
}

/** The spec's generic error panel. */
export function ErrorPanel({
  message = 'An error occured!',
  formalMessage,
  logo = false,
  actionPath,
  actionLabel = 'Click',
}: ErrorPanelProps) {
  const navigate = useNavigate();
  return (
    <Paper role="alert" withBorder radius="md" p="xl" maw={560} mx="auto" my="xl">
      <Stack align="center" gap="sm" ta="center">
        {logo === true ? (
          <ThemeIcon size={56} radius="xl" variant="light" color="orange" data-testid="error-panel-logo">
            <IconAlertTriangle size={32} />
          </ThemeIcon>
        ) : (
          logo || null
        )}
        <Title order={3}>{message}</Title>
        {formalMessage && <Text c="dimmed">{formalMessage}</Text>}
        {actionPath && (
          <Button mt="sm" onClick={() => navigate(actionPath)}>
            {actionLabel}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
