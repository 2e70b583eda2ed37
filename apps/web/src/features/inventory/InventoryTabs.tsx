import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { useInventoryT } from './texts';

const TABS = [
  { value: '/products/experiences/inventory/overview', key: 'tab.items' },
  { value: '/products/experiences/inventory/categories', key: 'tab.categories' },
  { value: '/products/experiences/inventory/tags', key: 'tab.tags' },
] as const;

export function InventoryTabs() {
  const t = useInventoryT();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={pathname} onChange={(v) => v && navigate(v)} mb="md">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value}>
            {t(tab.key)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
