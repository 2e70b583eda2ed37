import type { ComponentType } from 'react';
import type { AccessRequirements } from '../shared/components/RouteGuard';

/**
 * Every back-office page is a route declared as data: its path, what it needs (permission sets,
 * plan features) and a loader that imports its code on first visit (one chunk per page).
 */
export interface PageRoute extends AccessRequirements {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const PAGES: PageRoute[] = [
  { path: '/dashboard', load: () => import('../features/dashboard/DashboardPage') },
  { path: '/profile', load: () => import('../features/profile/ProfilePage') },
  {
    path: '/products/experiences/overview',
    permissions: ['View experiences'],
    features: ['experiences'],
    load: () => import('../features/experiences/OverviewPage'),
  },
  {
    path: '/products/experiences/editor/:experienceID/:step?',
    permissions: ['Manage experiences'],
    features: ['experiences'],
    load: () => import('../features/experiences/EditorPage'),
  },
  {
    path: '/products/experiences/pricing-categories',
    permissions: ['Manage experiences'],
    features: ['experiences'],
    load: () => import('../features/experiences/PricingCategoriesPage'),
  },
  {
    path: '/products/experiences/pricing-catalogue',
    permissions: ['Manage experiences'],
    features: ['experiences'],
    load: () => import('../features/experiences/PricingCataloguePage'),
  },
  {
    path: '/bookings/overview',
    permissions: ['Manage orders'],
    features: ['bookings'],
    load: () => import('../features/bookings/BookingsOverviewPage'),
  },
  {
    path: '/check-in',
    permissions: ['View experiences'],
    features: ['bookings'],
    load: () => import('../features/check-in/CheckInPage'),
  },
  {
    path: '/bookings/checkout-editor',
    permissions: ['Manage cart', 'Manage orders'],
    features: ['bookings'],
    load: () => import('../features/bookings/CheckoutEditorPage'),
  },
  {
    path: '/bookings/manifests',
    permissions: ['View experiences'],
    features: ['bookings'],
    load: () => import('../features/manifests/ManifestDayPage'),
  },
  {
    // The departures the signed-in member guides (issue 34); in the menu only for members who guide.
    path: '/my-departures',
    features: ['bookings'],
    guide: true,
    load: () => import('../features/manifests/MyDeparturesPage'),
  },
  {
    path: '/bookings/manifests/:slotId',
    permissions: ['View experiences'],
    features: ['bookings'],
    load: () => import('../features/manifests/ManifestPage'),
  },
  {
    path: '/orders/editor/:orderID/booking/:bookingId',
    permissions: ['Manage orders'],
    features: ['bookings'],
    load: () => import('../features/bookings/BookingDetailPage'),
  },
  {
    path: '/orders/list',
    permissions: ['Manage orders'],
    features: ['bookings'],
    load: () => import('../features/orders/OrdersListPage'),
  },
  {
    path: '/accounting/export',
    permissions: ['Manage orders'],
    features: ['bookings'],
    load: () => import('../features/accounting/AccountingExportPage'),
  },
  {
    path: '/orders/editor/:orderID/:tab?',
    permissions: ['Manage orders'],
    features: ['bookings'],
    load: () => import('../features/orders/OrderEditorPage'),
  },
  {
    path: '/sales/stores',
    permissions: ['Manage stores'],
    features: ['stores'],
    load: () => import('../features/stores/StoresListPage'),
  },
  {
    path: '/sales/stores/editor/:storeId/:tab?',
    permissions: ['Manage stores'],
    features: ['stores'],
    load: () => import('../features/stores/StoreEditorPage'),
  },
  {
    path: '/sales/qr-codes',
    permissions: ['Manage stores'],
    features: ['qr_codes'],
    load: () => import('../features/qr-codes/QrCodesPage'),
  },
  {
    path: '/sales/promo-codes',
    permissions: ['Manage stores'],
    features: ['stores'],
    load: () => import('../features/promo-codes/PromoCodesPage'),
  },
  {
    path: '/sales/gift-vouchers',
    permissions: ['Manage stores'],
    features: ['stores'],
    load: () => import('../features/gift-vouchers/GiftVouchersPage'),
  },
  {
    path: '/sales/partners',
    permissions: ['Manage stores'],
    features: ['partners'],
    load: () => import('../features/partners/PartnersPage'),
  },
  {
    path: '/sales/partners/invitation/:token',
    permissions: ['Manage stores'],
    features: ['partners'],
    load: () => import('../features/partners/InvitationPage'),
  },
  {
    path: '/sales/partners/:partnerId',
    permissions: ['Manage stores'],
    features: ['partners'],
    load: () => import('../features/partners/PartnerDetailPage'),
  },
  {
    path: '/resales/overview',
    permissions: ['Manage orders'],
    features: ['resales'],
    load: () => import('../features/resales/ResalesOverviewPage'),
  },
  {
    path: '/resales/overview/:resaleId',
    permissions: ['Manage orders'],
    features: ['resales'],
    load: () => import('../features/resales/ResaleDetailPage'),
  },
  {
    path: '/resales/settlements',
    permissions: ['Manage orders'],
    features: ['resales'],
    load: () => import('../features/resales/SettlementsPage'),
  },
  {
    path: '/resales/settlements/:settlementId',
    permissions: ['Manage orders'],
    features: ['resales'],
    load: () => import('../features/resales/SettlementDetailPage'),
  },
  {
    path: '/customers/list',
    permissions: ['Manage customers'],
    load: () => import('../features/customers/CustomersListPage'),
  },
  {
    path: '/customers/:customerId',
    permissions: ['Manage customers'],
    load: () => import('../features/customers/CustomerDetailPage'),
  },
  {
    path: '/capacity/overview',
    permissions: ['View experiences'],
    features: ['bookings'],
    load: () => import('../features/bookings/CapacityPage'),
  },
  {
    path: '/products/experiences/inventory/overview',
    permissions: ['Manage inventory'],
    features: ['inventory'],
    load: () => import('../features/inventory/ItemsPage'),
  },
  {
    path: '/products/experiences/inventory/categories',
    permissions: ['Manage inventory'],
    features: ['inventory'],
    load: () => import('../features/inventory/CategoriesPage'),
  },
  {
    path: '/products/experiences/inventory/tags',
    permissions: ['Manage inventory'],
    features: ['inventory'],
    load: () => import('../features/inventory/TagsPage'),
  },
  {
    path: '/settings/organization/:tab?',
    permissions: ['Manage account'],
    load: () => import('../features/organization/OrganizationPage'),
  },
  {
    path: '/settings/product-configuration',
    permissions: ['Manage account'],
    load: () => import('../features/organization/ProductConfigurationPage'),
  },
  {
    path: '/settings/payment-providers',
    permissions: ['Manage account'],
    load: () => import('../features/payment-providers/PaymentProvidersPage'),
  },
  {
    path: '/settings/webhooks',
    permissions: ['Manage account'],
    load: () => import('../features/webhooks/WebhooksPage'),
  },
  {
    path: '/settings/webhooks/:endpointId',
    permissions: ['Manage account'],
    load: () => import('../features/webhooks/WebhookEndpointPage'),
  },
  {
    path: '/settings/subscription/supplier-plans',
    permissions: ['Manage account'],
    load: () => import('../features/subscription/SubscriptionPage'),
  },
  {
    path: '/settings/subscription/affiliate-plans',
    permissions: ['Manage account'],
    load: () => import('../features/subscription/SubscriptionPage'),
  },
  {
    path: '/settings/team/roles',
    permissions: ['Manage users'],
    features: ['team'],
    load: () => import('../features/team/RolesPage'),
  },
  {
    // Who guides, days off, auto-assignment (issue 34): the team's managers who also schedule departures.
    path: '/settings/team/guides',
    permissions: ['Manage users', 'Manage experiences'],
    features: ['team', 'bookings'],
    load: () => import('../features/team/GuidesPage'),
  },
  {
    path: '/settings/team/members',
    permissions: ['Manage users'],
    features: ['team'],
    load: () => import('../features/team/MembersPage'),
  },
];
