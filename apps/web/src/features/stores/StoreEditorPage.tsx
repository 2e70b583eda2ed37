import { Anchor, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import { LAYOUT_WIDTHS, type TStore } from '@tourdesk/contracts';
import type { ComponentType } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { errorMessages } from '../../shared/api/errors';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { useStoreQuery } from './api';
import { isStoreTab, STORE_TABS, storeEditorPath, STORES_LIST, type StoreTab } from './constants';
import { AnalyticsTab } from './tabs/AnalyticsTab';
import { CatalogTab } from './tabs/CatalogTab';
import { ProductsTab } from './tabs/ProductsTab';
import { SettingsTab } from './tabs/SettingsTab';
import { useStoresT } from './texts';

const TABS: Record<StoreTab, ComponentType<{ store: TStore }>> = {
  overview: AnalyticsTab,
  'store-products': ProductsTab,
  settings: SettingsTab,
  'add-products': CatalogTab,
};

/**
 * /sales/stores/editor/{storeId}/{overview|store-products|settings|add-products}: one store.
 * The spec: a store that fails to load shows the error, and the page stays where it is.
 */
export default function StoreEditorPage() {
  const t = useStoresT();
  const { storeId = '', tab } = useParams();
  const navigate = useNavigate();
  const { data: store, error, isError } = useStoreQuery(storeId, { skip: !storeId });

  if (!isStoreTab(tab)) return <Navigate to={storeEditorPath(storeId)} replace />;
  if (isError) {
    return (
      <ErrorPanel
        logo
        message={t('notLoaded')}
        formalMessage={errorMessages(error).join(' ')}
        actionPath={STORES_LIST}
        actionLabel={t('allStores')}
      />
    );
  }
  if (!store || store.id !== storeId) return <Loader />;
  const Tab = TABS[tab];

  return (
    <Stack gap="md" maw={LAYOUT_WIDTHS.pageForm}>
      <Anchor component={Link} to={STORES_LIST} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('allStores')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Title order={2} style={{ overflowWrap: 'anywhere' }}>
              {store.name}
            </Title>
            <Badge variant="light" color={store.active ? 'green' : 'gray'} data-testid="store-status">
              {store.active ? t('active') : t('inactive')}
            </Badge>
          </Group>
          <Text c="dimmed" size="sm" style={{ wordBreak: 'break-all' }}>
            {store.url}
          </Text>
        </div>
        <Button component="a" href={store.url} target="_blank" rel="noopener noreferrer" variant="default" leftSection={<IconExternalLink size={16} />}>
          {t('openStore')}
        </Button>
      </Group>
      <Tabs value={tab} onChange={(v) => v && navigate(storeEditorPath(store.id, v as StoreTab))} keepMounted={false}>
        <Tabs.List>
          {STORE_TABS.map((entry) => (
            <Tabs.Tab key={entry.tab} value={entry.tab}>
              {t(`tab.${entry.tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {/* Keyed by store: what was typed never carries over into another store. */}
      <Tab key={`${store.id}/${tab}`} store={store} />
    </Stack>
  );
}
