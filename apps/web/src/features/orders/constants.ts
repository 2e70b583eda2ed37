import type { ORDER_ORDERINGS, TOrder } from '@tourdesk/contracts';

export const ORDERS_LIST = '/orders/list';

/**
 * The editor's tabs as the spec names them in its routes, and the audit trail (disabled in the spec;
 * it works here). Their names are the orders catalog's `tab.<tab>`.
 */
export const ORDER_TABS = [{ tab: 'details' }, { tab: 'invoice' }, { tab: 'payments' }, { tab: 'audit' }] as const;
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

/** The list's orderings, in the order the menu offers them; each named by the orders catalog's `ordering.<value>`. */
export const ORDERINGS: { value: (typeof ORDER_ORDERINGS)[number] }[] = [
  { value: '-created_at' },
  { value: 'created_at' },
  { value: '-total' },
  { value: 'total' },
  { value: 'reference' },
  { value: '-reference' },
];
export const DEFAULT_ORDERING = '-created_at';

/** The spec's text for a missing order id. */
export const MISSING_ORDER_ID = 'handleGetOrder function error: order ID was not provided!';

export const fullName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();
