import { Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { UnsavedChangesGuard } from '../../../shared/components/UnsavedChangesGuard';

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
      <UnsavedChangesGuard dirty={dirty} message="This step has changes that are not saved. Leave it anyway?" />
    </form>
  );
}
