import type { RouteAccess } from '../../lib/access';

/** Reading the catalogue needs "View experiences" (which "Manage experiences" includes). */
export const viewCatalog: RouteAccess = { permissions: ['View experiences'], features: ['experiences'] };
export const manageCatalog: RouteAccess = { permissions: ['Manage experiences'], features: ['experiences'] };
export const manageInventory: RouteAccess = { permissions: ['Manage inventory'], features: ['inventory'] };
