import {
  IconArrowsExchange,
  IconBuildingStore,
  IconCalendarEvent,
  IconChartBar,
  IconGauge,
  IconReceipt,
  IconReportMoney,
  IconRoute,
  IconScan,
  IconSettings,
  IconTicket,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { ITEM_LABEL } from '@tourdesk/contracts';
import { matchPath } from 'react-router';
import { hasFeatures, hasPermissions, type AppInfo, type SessionUser } from '../../shared/lib/permissions';
import { PAGES } from '../pages';

export interface NavItem {
  label: string;
  icon: Icon;
  /** Where the section opens (a section with children opens on its first child the user may open). */
  to: string;
  /** Paths that count as "inside" this section, for highlighting. */
  match: string[];
  /** `match`: the path prefix that counts as inside the child (its tabs), when not just `to`. */
  children?: { label: string; to: string; match?: string }[];
}

/** Where a plan-gated entry leads: the plans, where the feature is bought (the spec's "Upgrade now"). */
export const PLANS_PATH = '/settings/subscription/supplier-plans';

/**
 * What a menu entry needs is what its page declares (PAGES): the menu never says it again. Shown
 * when the user holds the page's permission sets; "locked" (a lock, leading to the plans) when only
 * the plan lacks a feature and the user may open the plans; otherwise not shown.
 */
export type NavAccess = 'open' | 'locked' | 'hidden';
export function pageOf(to: string) {
  return PAGES.find((page) => matchPath({ path: page.path, end: true }, to));
}
export function accessOf(to: string, user: SessionUser | null, appInfo: AppInfo | null): NavAccess {
  const page = pageOf(to);
  if (!page || !hasPermissions(user, appInfo, page.permissions ?? [])) return 'hidden';
  // A guide's own page (issue 34) is in the menu only for a member who guides.
  if (page.guide && !user?.guides) return 'hidden';
  if (!page.features?.length || hasFeatures(user, page.features)) return 'open';
  const plans = pageOf(PLANS_PATH);
  return plans && hasPermissions(user, appInfo, plans.permissions ?? []) ? 'locked' : 'hidden';
}

export interface VisibleNavChild {
  label: string;
  to: string;
  match?: string;
  locked: boolean;
}
export interface VisibleNavItem extends Omit<NavItem, 'children'> {
  locked: boolean;
  children?: VisibleNavChild[];
}

/** The menu this user sees: entries they may open, plan-gated ones locked; sections without any dropped. */
export function visibleNavigation(user: SessionUser | null, appInfo: AppInfo | null): VisibleNavItem[] {
  return NAVIGATION.flatMap((item): VisibleNavItem[] => {
    if (!item.children) {
      const access = accessOf(item.to, user, appInfo);
      return access === 'hidden' ? [] : [{ label: item.label, icon: item.icon, to: item.to, match: item.match, locked: access === 'locked' }];
    }
    const children = item.children.flatMap((child) => {
      const access = accessOf(child.to, user, appInfo);
      return access === 'hidden' ? [] : [{ ...child, locked: access === 'locked' }];
    });
    if (children.length === 0) return [];
    const first = children.find((c) => !c.locked) ?? children[0]!;
    return [{ ...item, to: first.to, locked: children.every((c) => c.locked), children }];
  });
}

/**
 * The spec's sections, in the order of its section 2: only pages that exist (navigation.test.ts
 * checks each entry against the declared pages, and walks the menu of an Owner, a guide and a
 * reseller). Who sees an entry is decided by its page's declaration (accessOf).
 */
export const NAVIGATION: NavItem[] = [
  { label: 'Dashboard', icon: IconGauge, to: '/dashboard', match: ['/dashboard'] },
  {
    label: ITEM_LABEL.plural,
    icon: IconTicket,
    to: '/products/experiences/overview',
    match: ['/products'],
    children: [
      { label: 'Catalog', to: '/products/experiences/overview' },
      { label: 'Pricing', to: '/products/experiences/pricing-catalogue' },
      { label: 'Inventory', to: '/products/experiences/inventory/overview' },
    ],
  },
  {
    label: 'Stores and sales',
    icon: IconBuildingStore,
    to: '/sales/stores',
    match: ['/sales'],
    children: [
      { label: 'Stores', to: '/sales/stores' },
      { label: 'QR codes', to: '/sales/qr-codes' },
      { label: 'Promo codes', to: '/sales/promo-codes' },
      { label: 'Gift vouchers', to: '/sales/gift-vouchers' },
      { label: 'Partners', to: '/sales/partners' },
    ],
  },
  {
    label: 'Bookings',
    icon: IconCalendarEvent,
    to: '/bookings/overview',
    match: ['/bookings'],
    children: [
      { label: 'Overview', to: '/bookings/overview' },
      { label: 'Checkout', to: '/bookings/checkout-editor' },
      { label: 'Manifests', to: '/bookings/manifests' },
    ],
  },
  { label: 'Check-in', icon: IconScan, to: '/check-in', match: ['/check-in'] },
  { label: 'My departures', icon: IconRoute, to: '/my-departures', match: ['/my-departures'] },
  { label: 'Capacity', icon: IconChartBar, to: '/capacity/overview', match: ['/capacity'] },
  { label: 'Resales', icon: IconArrowsExchange, to: '/resales/overview', match: ['/resales'] },
  { label: 'Orders', icon: IconReceipt, to: '/orders/list', match: ['/orders'] },
  { label: 'Accounting', icon: IconReportMoney, to: '/accounting/export', match: ['/accounting'] },
  { label: 'Customers', icon: IconUsers, to: '/customers/list', match: ['/customers'] },
  {
    label: 'Settings',
    icon: IconSettings,
    to: '/settings/organization/contact',
    match: ['/settings'],
    children: [
      { label: 'Organisation', to: '/settings/organization/contact', match: '/settings/organization' },
      { label: 'Product configuration', to: '/settings/product-configuration' },
      { label: 'Payment providers', to: '/settings/payment-providers' },
      { label: 'Webhooks', to: '/settings/webhooks', match: '/settings/webhooks' },
      { label: 'Subscription', to: '/settings/subscription/supplier-plans', match: '/settings/subscription' },
      { label: 'Team members', to: '/settings/team/members' },
      { label: 'Roles', to: '/settings/team/roles' },
      { label: 'Guides', to: '/settings/team/guides' },
    ],
  },
];
