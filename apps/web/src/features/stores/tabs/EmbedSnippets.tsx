import { Button, Code, CopyButton, Group, Select, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { TStore } from '@tourdesk/contracts';
import { useState } from 'react';
import { useStoreOffersQuery } from '../api';
import { useStoresT } from '../texts';

/** The snippets that put the store, or one offer's "Book now" button, on the operator's own site. */
export function embedSnippets(store: Pick<TStore, 'url' | 'slug'>, offer?: string) {
  const origin = new URL(store.url).origin;
  const inline = `<script src="${origin}/embed.js" data-store="${store.slug}" async></script>`;
  const button = offer ? `<script src="${origin}/embed.js" data-store="${store.slug}" data-offer="${offer}" data-mode="button" async></script>` : '';
  return { inline, button };
}

function Snippet({ label, code }: { label: string; code: string }) {
  const t = useStoresT();
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy} aria-label={t('embed.copyLabel', { label })}>
              {copied ? t('embed.copied') : t('embed.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
    </Stack>
  );
}

/**
 * How to show the store on the operator's own website: the whole store in a frame that grows with
 * its content, or a "Book now" button for one offer that opens it above the page. Either way the
 * customer's cart needs no cookie, and the store's styles and the site's never touch each other.
 */
export function EmbedSnippets({ store }: { store: TStore }) {
  const t = useStoresT();
  const { data } = useStoreOffersQuery(store.id);
  const [offer, setOffer] = useState<string | null>(null);
  const chosen = offer ?? data?.[0]?.experience ?? null;
  const snippets = embedSnippets(store, chosen ?? undefined);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('embed.hint')}
      </Text>
      <Snippet label={t('embed.inline')} code={snippets.inline} />
      {data && data.length > 0 && (
        <>
          <Select
            label={t('embed.buttonFor')}
            data={data.map((e) => ({ value: e.experience, label: e.title }))}
            value={chosen}
            onChange={setOffer}
            allowDeselect={false}
          />
          <Snippet label={t('embed.button')} code={snippets.button} />
        </>
      )}
    </Stack>
  );
}
