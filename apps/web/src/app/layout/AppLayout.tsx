import { AppShell, Box, Burger, Group, NavLink, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useDisclosure } from '@mantine/hooks';
import { LAYOUT_WIDTHS } from '@tourdesk/contracts';
import { Suspense } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../../shared/components/FullPageSpinner';
import { useAppSelector } from '../../shared/hooks/store';
import { Brand } from './Brand';
import { PLANS_PATH, visibleNavigation } from './navigation';
import { NotificationsBell } from './NotificationsBell';
import { ThemeToggle } from './ThemeToggle';
import { useShellT } from './texts';
import { UserMenu } from './UserMenu';
import type { ShellKey } from '@tourdesk/contracts/i18n/catalogs/backoffice/shell/en';

/** Each menu entry's text, by its English label (navigation.ts names entries in English). */
const NAV_TEXT: Record<string, ShellKey> = {
  Dashboard: 'nav.dashboard',
  Offers: 'nav.offers',
  Catalog: 'nav.catalog',
  Pricing: 'nav.pricing',
  Inventory: 'nav.inventory',
  'Stores and sales': 'nav.storesAndSales',
  Stores: 'nav.stores',
  'QR codes': 'nav.qrCodes',
  'Promo codes': 'nav.promoCodes',
  'Gift vouchers': 'nav.giftVouchers',
  Partners: 'nav.partners',
  Bookings: 'nav.bookings',
  Overview: 'nav.overview',
  Checkout: 'nav.checkout',
  Manifests: 'nav.manifests',
  'Check-in': 'nav.checkIn',
  'My departures': 'nav.myDepartures',
  Capacity: 'nav.capacity',
  Resales: 'nav.resales',
  Orders: 'nav.orders',
  Accounting: 'nav.accounting',
  Customers: 'nav.customers',
  Settings: 'nav.settings',
  Organisation: 'nav.organisation',
  'Product configuration': 'nav.productConfiguration',
  'Payment providers': 'nav.paymentProviders',
  Webhooks: 'nav.webhooks',
  Subscription: 'nav.subscription',
  'Team members': 'nav.teamMembers',
  Guides: 'nav.guides',
  Roles: 'nav.roles',
};

/** The back-office shell: header, side navigation for the spec's sections, and the page. */
export function AppLayout() {
  const t = useShellT();
  const label = (english: string) => (NAV_TEXT[english] ? t(NAV_TEXT[english]) : english);
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const organisation = useAppSelector((s) => s.auth.user?.base_account?.name);
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  // Only what the user may open (each page's own declaration); plan-gated pages locked, to the plans.
  const visible = visibleNavigation(user, appInfo);
  const lock = <IconLock size={14} aria-label={t('nav.locked')} />;
  const inSection = (prefixes: string[]) => prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`));

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />
            <Brand />
            {organisation && (
              <Text c="dimmed" size="sm" visibleFrom="sm">
                {organisation}
              </Text>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <NotificationsBell />
            <ThemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label={t('nav.label')}>
        {/* The browser's own scrolling: Mantine's ScrollArea brings Floating UI into the first load. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          {visible.map((item) => {
            const icon = <item.icon size={18} stroke={1.6} />;
            if (!item.children) {
              return (
                <NavLink
                  key={item.label}
                  label={label(item.label)}
                  leftSection={icon}
                  rightSection={item.locked ? lock : undefined}
                  component={RouterNavLink}
                  to={item.locked ? PLANS_PATH : item.to}
                  active={inSection(item.match)}
                  onClick={close}
                />
              );
            }
            return (
              <NavLink
                key={item.label}
                component="button"
                label={label(item.label)}
                leftSection={icon}
                childrenOffset={28}
                defaultOpened={inSection(item.match)}
              >
                {item.children.map((child) => (
                  <NavLink
                    key={child.to}
                    label={label(child.label)}
                    rightSection={child.locked ? lock : undefined}
                    component={RouterNavLink}
                    to={child.locked ? PLANS_PATH : child.to}
                    active={!child.locked && inSection([child.match ?? child.to])}
                    onClick={close}
                  />
                ))}
              </NavLink>
            );
          })}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <Box maw={LAYOUT_WIDTHS.content} mx="auto">
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
