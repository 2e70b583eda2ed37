import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { value: '/products/experiences/inventory/overview', label: 'Items' },
  { value: '/products/experiences/inventory/categories', label: 'Categories' },
  { value: '/products/experiences/inventory/tags', label: 'Tags' },
];

export function InventoryTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={pathname} onChange={(v) => v && navigate(v)} mb="md">
      <Tabs.List>
        {TABS.map((t) => (
          <Tabs.Tab key={t.value} value={t.value}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
