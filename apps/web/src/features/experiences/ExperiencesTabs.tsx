import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { hasPermissions } from '../../shared/lib/permissions';
import { useExperiencesT } from './texts';

/** The spec's tab group: Catalog (View experiences), Pricing categories and Pricing rates (Manage experiences). */
const TABS = [
  { value: '/products/experiences/overview', key: 'tab.catalog', permissions: ['View experiences'] },
  { value: '/products/experiences/pricing-categories', key: 'tab.categories', permissions: ['Manage experiences'] },
  { value: '/products/experiences/pricing-catalogue', key: 'tab.rates', permissions: ['Manage experiences'] },
] as const;

export function ExperiencesTabs() {
  const tr = useExperiencesT();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  return (
    <Tabs value={pathname} onChange={(v) => v && navigate(v)} mb="md">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} disabled={!hasPermissions(user, appInfo, tab.permissions)}>
            {tr(tab.key)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
