import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useAddOfferToStoreMutation, useOfferChannelsQuery } from './api';
import { useOfferEditorT } from './editor-texts';

/**
 * "Where it is sold", on an offer that is on sale: at the counter, in each web store that shows it
 * (with its public page), through partners; a store that does not show it yet gets an "Add" button,
 * and an organisation without a store is led to create its first one with this offer in it.
 * Shown to those who manage stores (the calls it makes need it).
 */
export function OfferChannels({ experienceId }: { experienceId: string }) {
  const t = useOfferEditorT();
  const { data } = useOfferChannelsQuery(experienceId);
  const [add, adding] = useAddOfferToStoreMutation();
  if (!data) return null;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="offer-channels-title" data-testid="offer-channels">
      <Stack gap="xs">
        <Title order={3} size="h5" id="offer-channels-title">
          {t('channels.title')}
        </Title>
        <Text size="sm">{t('channels.counter')}</Text>
        {data.stores.length === 0 ? (
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed">
              {t('channels.noStore')}
            </Text>
            <Button component={Link} to={`/sales/stores?new=1&offer=${experienceId}`} size="xs" leftSection={<IconPlus size={14} />}>
              {t('channels.createStore')}
            </Button>
          </Group>
        ) : (
          data.stores.map((s) => (
            <Group key={s.id} justify="space-between" wrap="wrap" gap="xs">
              <Group gap="xs">
                <Text size="sm" fw={500}>
                  {s.name}
                </Text>
                {!s.active && (
                  <Badge color="gray" variant="light">
                    {t('channels.storeInactive')}
                  </Badge>
                )}
                <Badge color={s.sells ? 'green' : 'gray'} variant="light">
                  {s.sells ? t('channels.inStore') : t('channels.notInStore')}
                </Badge>
              </Group>
              {s.sells ? (
                s.active && (
                  <Anchor href={s.url} target="_blank" rel="noopener" size="sm">
                    <Group gap={4}>
                      {t('channels.openStore', { name: s.name })} <IconExternalLink size={14} />
                    </Group>
                  </Anchor>
                )
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  loading={adding.isLoading && adding.originalArgs?.store === s.id}
                  onClick={async () => {
                    const res = await add({ store: s.id, experience: experienceId });
                    if (!('error' in res)) notifySuccess(t('channels.added', { name: s.name }));
                  }}
                >
                  {t('channels.add', { name: s.name })}
                </Button>
              )}
            </Group>
          ))
        )}
        {data.partners > 0 && (
          <Text size="sm" c="dimmed">
            {t('channels.partners', { count: data.partners })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
