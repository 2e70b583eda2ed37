import {
  IconArrowsExchange,
  IconBuildingStore,
  IconCalendarEvent,
  IconChartBar,
  IconGauge,
  IconReceipt,
  IconScan,
  IconSettings,
  IconTicket,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { ITEM_LABEL, type PermissionSetTitle, type SubscriptionFeature } from '@tourdesk/contracts';

export interface NavItem {
  label: string;
  icon: Icon;
  /** Where the section opens. */
  to: string;
  /** Paths that count as "inside" this section, for highlighting. */
  match: string[];
  permissions?: PermissionSetTitle[];
  /** Plan features the section needs (shown only to organisations whose plan has them). */
  features?: SubscriptionFeature[];
  /** `match`: the path prefix that counts as inside the child (its tabs), when not just `to`. */
  children?: { label: string; to: string; match?: string }[];
}

/**
 * The spec's sections, in the order of its section 2: only pages that exist (navigation.test.ts
 * checks each entry against the declared pages). QR codes, Partners, Resales and Product
 * configuration join with their pages.
 */
export const NAVIGATION: NavItem[] = [
  { label: 'Dashboard', icon: IconGauge, to: '/dashboard', match: ['/dashboard'] },
  {
    label: ITEM_LABEL.plural,
    icon: IconTicket,
    to: '/products/experiences/overview',
    match: ['/products'],
    permissions: ['View experiences'],
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
    permissions: ['Manage stores'],
    children: [
      { label: 'Stores', to: '/sales/stores' },
      { label: 'QR codes', to: '/sales/qr-codes' },
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
  { label: 'Check-in', icon: IconScan, to: '/check-in', match: ['/check-in'], permissions: ['View experiences'], features: ['bookings'] },
  { label: 'Capacity', icon: IconChartBar, to: '/capacity/overview', match: ['/capacity'] },
  {
    label: 'Resales',
    icon: IconArrowsExchange,
    to: '/resales/overview',
    match: ['/resales'],
    permissions: ['Manage orders'],
    features: ['resales'],
  },
  { label: 'Orders', icon: IconReceipt, to: '/orders/list', match: ['/orders'], permissions: ['Manage orders'] },
  { label: 'Customers', icon: IconUsers, to: '/customers/list', match: ['/customers'], permissions: ['Manage customers'] },
  {
    label: 'Settings',
    icon: IconSettings,
    to: '/settings/organization/contact',
    match: ['/settings'],
    children: [
      { label: 'Organisation', to: '/settings/organization/contact', match: '/settings/organization' },
      { label: 'Payment providers', to: '/settings/payment-providers' },
      { label: 'Subscription', to: '/settings/subscription/supplier-plans', match: '/settings/subscription' },
      { label: 'Team members', to: '/settings/team/members' },
      { label: 'Roles', to: '/settings/team/roles' },
    ],
  },
];
