export const CUSTOMERS_LIST = '/customers/list';
export const customerPath = (id: string) => `/customers/${id}`;
export const orderPath = (id: string) => `/orders/editor/${id}/details`;
export const fullName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

export const PAYMENT_STATUS_COLOR: Record<string, string> = {
  'Not paid': 'red',
  'Partially paid': 'orange',
  'Fully paid': 'green',
  Refunded: 'grape',
};
export const ORDER_STATUS_COLOR: Record<string, string> = { Created: 'gray', Confirmed: 'green', Canceled: 'red' };
