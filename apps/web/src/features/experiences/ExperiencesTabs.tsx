import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { hasPermissions } from '../../shared/lib/permissions';

/** The spec's tab group: Catalog (View experiences), Pricing categories and Pricing rates (Manage experiences). */
const TABS = [
  { value: '/products/experiences/overview', label: 'Catalog', permissions: ['View experiences'] },
  { value: '/products/experiences/pricing-categories', label: 'Pricing categories', permissions: ['Manage experiences'] },
  { value: '/products/experiences/pricing-catalogue', label: 'Pricing rates', permissions: ['Manage experiences'] },
];

export function ExperiencesTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  return (
    <Tabs value={pathname} onChange={(v) => v && navigate(v)} mb="md">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} disabled={!hasPermissions(user, appInfo, tab.permissions)}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
