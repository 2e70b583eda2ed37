import { Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { UnsavedChangesGuard } from '../../../shared/components/UnsavedChangesGuard';
import { useCommonT } from '../../../shared/i18n/common';
import { useOfferEditorT } from '../editor-texts';

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
  const t = useOfferEditorT();
  const common = useCommonT();
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
            {common('save')}
          </Button>
          {hasNext && (
            <Button type="button" loading={saving} onClick={() => onSave(true)}>
              {t('form.saveAndContinue')}
            </Button>
          )}
        </Group>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} message={t('form.unsaved')} />
    </form>
  );
}
