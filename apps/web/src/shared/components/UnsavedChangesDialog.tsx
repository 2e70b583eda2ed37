import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useCommonT } from '../i18n/common';

/**
 * The dialog of UnsavedChangesGuard: Stay, or Leave without saving. Its own module, fetched when a
 * navigation is first blocked, so that every form carrying the guard does not also carry Mantine's
 * Modal and its scroll lock (about 15 kB gzip) for a dialog most visits never show.
 */
export default function UnsavedChangesDialog({ opened, message, onStay, onLeave }: { opened: boolean; message: string; onStay: () => void; onLeave: () => void }) {
  const t = useCommonT();
  return (
    <Modal opened={opened} onClose={onStay} title={t('unsaved.title')}>
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onStay}>
            {t('unsaved.stay')}
          </Button>
          <Button color="red" onClick={onLeave}>
            {t('unsaved.leave')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
