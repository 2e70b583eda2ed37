import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useBlocker } from 'react-router';

/**
 * While a form is dirty, leaving for another page asks first: Stay, or Leave without saving.
 * Render it inside the form; `message` says what would be lost.
 */
export function UnsavedChangesGuard({ dirty, message }: { dirty: boolean; message: string }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Unsaved changes">
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            Stay
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
