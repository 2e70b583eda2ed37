/**
 * Business constants from the product specification (section 9 and section 4).
 * Both the API and the web app import them from here so there is exactly one copy.
 */

export const ITEM_LABEL = { singular: 'Offer', plural: 'Offers' } as const;

export const PAGE_SIZE_OPTIONS = [5, 10, 25, 50] as const;
export type PageSize = (typeof PAGE_SIZE_OPTIONS)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

export const SEARCH_DEBOUNCE_MS = 500;
/** Unused cached query data is kept this many seconds. */
export const QUERY_CACHE_SECONDS = 60;
export const TOKEN_REFRESH_RETRIES = 5;
export const TOAST = { autoCloseMs: 7000, draggable: false, maxWidthPx: 496 } as const;

/** The spec's MIN 10 / MAX 60: the bounds of a cart hold, in minutes. */
export const HOLD_MINUTES = { MIN: 10, MAX: 60 } as const;

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_DISPLAY_FORMAT = 'DD. MMMM YYYY';

export const EXPERIENCE_STATUSES = ['Draft', 'Active', 'Inactive'] as const;
export const EXPERIENCE_TYPES = ['Rental', 'Ticket & Passes', 'Transfer'] as const;
export const PRICING_CATEGORY_TYPES = [
  'Child',
  'Adult',
  'Teenager',
  'Infant',
  'Senior',
  'Group',
  'Transportation',
  'Amenity',
  'Ticket',
  'Pass',
  'Other',
] as const;
export const INVENTORY_TYPES = ['Equipment', 'Extras', 'Package'] as const;
export const PARTNER_TYPES = ['Resellers', 'Suppliers'] as const;
export const OWNERSHIP_TYPES = ['Internal', 'External'] as const;

export const ORDER_STATUSES = ['Created', 'Confirmed', 'Canceled'] as const;
export const ORDER_STATUS_FILTERS = ['Confirmed', 'Unconfirmed', 'Canceled'] as const;
export const PAYMENT_STATUSES = ['Not paid', 'Partially paid', 'Fully paid', 'Refund due', 'Refunded'] as const;
export const BOOKING_STATUSES = ['Created', 'Confirmed', 'Canceled'] as const;
export const BOOKING_STATUS_FILTERS = ['Confirmed', 'In progress', 'Canceled', 'Completed'] as const;
export const ATTENDANCE_STATUSES = ['Open', 'Arrived', 'No show'] as const;
export const DATE_RANGE_FILTERS = ['all', '7 days', '30 days', '2 months'] as const;

export const ACCOUNT_KINDS = ['supplier', 'affiliate'] as const;

/** The nine permission sets of the spec's section 6, by title. */
export const PERMISSION_SET_TITLES = [
  'Manage account',
  'Manage users',
  'Manage experiences',
  'Manage customers',
  'Manage cart',
  'Manage stores',
  'Manage inventory',
  'Manage orders',
  'View experiences',
] as const;
export type PermissionSetTitle = (typeof PERMISSION_SET_TITLES)[number];

/** Layout widths (px) and breakpoints (px) from the spec's section 9. */
export const LAYOUT_WIDTHS = { content: 1500, contentNarrow: 1200, form: 850, pageForm: 1100 } as const;
export const BREAKPOINTS = {
  mob: 0,
  mobM: 375,
  mobL: 450,
  mobXL: 550,
  tab: 768,
  tabL: 968,
  lap: 1366,
  lapL: 1600,
  desk: 1920,
  deskL: 2560,
} as const;
