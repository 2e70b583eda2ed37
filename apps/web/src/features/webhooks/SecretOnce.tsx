import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useWebhooksT } from './texts';

/** A signing secret, shown this once (after adding an endpoint or rotating its secret). */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const t = useWebhooksT();
  return (
    <Stack>
      <Alert color="yellow" variant="light" icon={<IconKey />}>
        <Text size="sm">{t('secret.once')}</Text>
      </Alert>
      <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group justify="space-between">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
              {copied ? t('secret.copied') : t('secret.copy')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>{t('secret.done')}</Button>
      </Group>
    </Stack>
  );
}
