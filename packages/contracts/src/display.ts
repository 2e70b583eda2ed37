/**
 * How the organisation's times read, and what its tickets show: constants without schemas (the
 * back office's first page load reads them).
 */
export const TIME_FORMATS = ['24h', '12h'] as const;
export type TTimeFormat = (typeof TIME_FORMATS)[number];

export const TICKET_FIELDS = ['meeting_point', 'customer_name', 'items', 'balance_due', 'order_reference'] as const;
export type TTicketField = (typeof TICKET_FIELDS)[number];
export const TICKET_FIELD_LABEL: Record<TTicketField, string> = {
  meeting_point: 'Meeting point',
  customer_name: 'Guest’s name',
  items: 'Categories and extras booked',
  balance_due: 'What is left to pay on site',
  order_reference: 'Order reference',
};
