import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/**
 * A button that asks first, in a modal: `onConfirm` answers whether it worked (the modal then
 * closes); a failure keeps it open, the server's message is toasted.
 */
export function ConfirmButton({
  children,
  title,
  message,
  confirmLabel,
  onConfirm,
  ...button
}: ButtonProps & { children: ReactNode; title: string; message: ReactNode; confirmLabel: string; onConfirm: () => Promise<boolean> }) {
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button {...button} onClick={() => setOpened(true)}>
        {children}
      </Button>
      <Modal opened={opened} onClose={() => !busy && setOpened(false)} title={title} centered>
        <Stack>
          {typeof message === 'string' ? <Text size="sm">{message}</Text> : message}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)} disabled={busy}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                const ok = await onConfirm().finally(() => setBusy(false));
                if (ok) setOpened(false);
              }}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
