import { ActionIcon, Badge, Button, Group, Image, Loader, Paper, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPhoto, IconPlus } from '@tabler/icons-react';
import type { TStore, TStoreExperience } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../shared/components/ConfirmButton';
import { notifySuccess } from '../../../shared/lib/toast';
import { useRemoveStoreOfferMutation, useReorderStoreOffersMutation, useStoreOffersQuery } from '../api';
import { OFFER_STATUS_COLOR, storeEditorPath } from '../constants';
import { useStoresT } from '../texts';

export function Cover({ url }: { url: string | null }) {
  return url ? (
    <Image src={url} w={64} h={44} radius="sm" fit="cover" alt="" style={{ flexShrink: 0 }} />
  ) : (
    <ThemeIcon variant="light" color="gray" w={64} h={44} radius="sm" style={{ flexShrink: 0 }} aria-hidden>
      <IconPhoto size={20} />
    </ThemeIcon>
  );
}

function OfferRow({
  offer,
  index,
  count,
  onMove,
  onRemove,
}: {
  offer: TStoreExperience;
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => Promise<boolean>;
}) {
  const t = useStoresT();
  const status: Record<string, string> = { Draft: t('products.status.Draft'), Active: t('products.status.Active'), Inactive: t('products.status.Inactive') };
  return (
    <Paper withBorder p="xs" radius="md" component="li" data-testid="store-offer" data-title={offer.title}>
      {/* On a phone the buttons go under the offer, at the right. */}
      <Group gap="sm" justify="flex-end">
        <Group wrap="nowrap" gap="sm" style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Text c="dimmed" size="sm" w={22} ta="right" style={{ flexShrink: 0 }} aria-hidden>
            {index + 1}
          </Text>
          <Cover url={offer.cover_url} />
          <div style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                {offer.title}
              </Text>
              <Badge variant="light" size="sm" color={OFFER_STATUS_COLOR[offer.status] ?? 'gray'}>
                {status[offer.status] ?? offer.status}
              </Badge>
            </Group>
            {offer.supplier && (
              <Text size="xs" c="dimmed">
                {t('products.resold', { supplier: offer.supplier })}
              </Text>
            )}
            {offer.status !== 'Active' && (
              <Text size="xs" c="dimmed">
                {t('products.notActive')}
              </Text>
            )}
          </div>
        </Group>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          <ActionIcon variant="default" aria-label={t('products.moveUp', { title: offer.title })} disabled={index === 0} onClick={() => onMove(-1)}>
            <IconArrowUp size={16} />
          </ActionIcon>
          <ActionIcon variant="default" aria-label={t('products.moveDown', { title: offer.title })} disabled={index === count - 1} onClick={() => onMove(1)}>
            <IconArrowDown size={16} />
          </ActionIcon>
          <ConfirmButton
            size="xs"
            variant="subtle"
            color="red"
            aria-label={t('products.removeLabel', { title: offer.title })}
            title={t('products.removeTitle')}
            message={offer.supplier ? t('products.removeShared', { title: offer.title, supplier: offer.supplier }) : t('products.removeOwn', { title: offer.title })}
            confirmLabel={t('products.remove')}
            onConfirm={onRemove}
          >
            {t('products.remove')}
          </ConfirmButton>
        </Group>
      </Group>
    </Paper>
  );
}

/** The Products tab (…/store-products): the store's offers in the order customers see them. */
export function ProductsTab({ store }: { store: TStore }) {
  const t = useStoresT();
  const { data: offers, isLoading, isFetching } = useStoreOffersQuery(store.id);
  const [reorder] = useReorderStoreOffersMutation();
  const [remove] = useRemoveStoreOfferMutation();
  const [announcement, setAnnouncement] = useState('');

  if (isLoading || !offers) return <Loader />;
  if (offers.length === 0) {
    return (
      <Paper withBorder p="xl" radius="md" ta="center">
        <Stack align="center" gap="sm">
          <Text>{t('products.empty')}</Text>
          <Button component={Link} to={storeEditorPath(store.id, 'add-products')} leftSection={<IconPlus size={16} />}>
            {t('products.addFromCatalog')}
          </Button>
        </Stack>
      </Paper>
    );
  }

  const move = (index: number, by: -1 | 1) => {
    const ids = offers.map((o) => o.experience);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    setAnnouncement(t('products.moved', { title: offers[index]!.title, position: index + by + 1, count: ids.length }));
    void reorder({ id: store.id, experiences: ids });
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('products.hint')}
      </Text>
      <Stack gap="xs" component="ol" aria-label={t('products.list')} p={0} m={0} style={{ listStyle: 'none', opacity: isFetching ? 0.7 : 1 }}>
        {offers.map((o, i) => (
          <OfferRow
            key={o.experience}
            offer={o}
            index={i}
            count={offers.length}
            onMove={(by) => move(i, by)}
            onRemove={async () => {
              const res = await remove({ id: store.id, experience: o.experience });
              if ('error' in res) return false;
              notifySuccess(t('products.removed', { title: o.title }));
              return true;
            }}
          />
        ))}
      </Stack>
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
    </Stack>
  );
}
