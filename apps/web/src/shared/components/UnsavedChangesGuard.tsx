import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useCommonT } from '../i18n/common';
import { useBlocker, useNavigate, type Location } from 'react-router';

/** Marks a navigation that a successful save started (see `useLeaveSaved`). */
const SAVED = { leavingSaved: true } as const;
const leavesSaved = (location: Location) => (location.state as typeof SAVED | null)?.leavingSaved === true;

/**
 * While a form is dirty, leaving for another page asks first: Stay, or Leave without saving.
 * Render it inside the form; `message` says what would be lost.
 */
export function UnsavedChangesGuard({ dirty, message }: { dirty: boolean; message: string }) {
  const t = useCommonT();
  // A history entry keeps its state: Back to a page once left after a save is not itself a save.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation, historyAction }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname && !(historyAction !== 'POP' && leavesSaved(nextLocation)),
  );
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('unsaved.title')}>
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            {t('unsaved.stay')}
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            {t('unsaved.leave')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Leaves for another page after a save (or a delete) has made the form's changes safe. The guard
 * judges a navigation by the form as it last rendered: one started right after the save, before
 * React has rendered the clean form and run its effects, would still find it dirty. Rather than
 * wait with a timer for that render, the navigation says it follows a save.
 */
export function useLeaveSaved() {
  const navigate = useNavigate();
  return (to: string) => navigate(to, { state: SAVED });
}
