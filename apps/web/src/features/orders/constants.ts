import type { PAYMENT_METHODS_ALL, TOrder } from '@tourdesk/contracts';

export const ORDERS_LIST = '/orders/list';

/** The editor's tabs as the spec names them in its routes, and the audit trail (disabled in the spec; it works here). */
export const ORDER_TABS = [
  { tab: 'details', label: 'Details' },
  { tab: 'invoice', label: 'Invoice' },
  { tab: 'payments', label: 'Payments' },
  { tab: 'audit', label: 'Audit trail' },
] as const;
export type OrderTab = (typeof ORDER_TABS)[number]['tab'];

export const orderPath = (id: string, tab: OrderTab = 'details') => `/orders/editor/${id}/${tab}`;
export const bookingPath = (order: string, booking: string) => `/orders/editor/${order}/booking/${booking}`;
export const customerPath = (id: string) => `/customers/${id}`;

export const ORDER_STATUS_COLOR: Record<TOrder['status'], string> = { Created: 'gray', Confirmed: 'green', Canceled: 'red' };
export const PAYMENT_STATUS_COLOR: Record<TOrder['payment_status'], string> = {
  'Not paid': 'red',
  'Partially paid': 'orange',
  'Fully paid': 'green',
  'Refund due': 'red',
  Refunded: 'grape',
};
export const LINE_STATUS_COLOR: Record<string, string> = { Created: 'gray', Confirmed: 'green', Canceled: 'red' };

export const DATE_RANGE_LABELS: Record<string, string> = { all: 'All time', '7 days': 'Last 7 days', '30 days': 'Last 30 days', '2 months': 'Last 2 months' };

export const ORDERINGS = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: '-total', label: 'Highest total' },
  { value: 'total', label: 'Lowest total' },
  { value: 'reference', label: 'Reference A–Z' },
  { value: '-reference', label: 'Reference Z–A' },
];
export const DEFAULT_ORDERING = '-created_at';

export const METHOD_LABELS: Record<(typeof PAYMENT_METHODS_ALL)[number], string> = {
  cash: 'Cash',
  'card terminal': 'Card terminal',
  'bank transfer': 'Bank transfer',
  other: 'Other',
  online: 'Online (card)',
};

/** The spec's text for a missing order id. */
export const MISSING_ORDER_ID = 'handleGetOrder function error: order ID was not provided!';

export const fullName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

/** "21.00 %" from basis points. */
export { vatRate } from '../../shared/lib/money';

/** A yes/no answer reads "Yes" / "No"; other answers as given. */
export const answerText = (a: string) => (a === 'yes' ? 'Yes' : a === 'no' ? 'No' : a);
