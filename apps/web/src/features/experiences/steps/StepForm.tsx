import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useBlocker } from 'react-router';

/**
 * The frame of an editor step: its fields, and "Save" / "Save and continue". Continuing happens
 * only when the form is valid and saved. Leaving with unsaved changes asks first.
 */
export function StepForm({
  children,
  dirty,
  saving,
  onSave,
  hasNext,
}: {
  children: ReactNode;
  dirty: boolean;
  saving: boolean;
  onSave: (goNext: boolean) => void;
  hasNext: boolean;
}) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSave(false);
      }}
    >
      <Stack gap="md" maw={850}>
        {children}
        <Group justify="flex-end" mt="md">
          <Button type="submit" variant={hasNext ? 'default' : 'filled'} loading={saving} disabled={!dirty}>
            Save
          </Button>
          {hasNext && (
            <Button type="button" loading={saving} onClick={() => onSave(true)}>
              Save and continue
            </Button>
          )}
        </Group>
      </Stack>
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Unsaved changes">
        <Stack>
          <Text>This step has changes that are not saved. Leave it anyway?</Text>
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
    </form>
  );
}
