import type { TWebOrder } from '@tourdesk/contracts';
import type { StoreKey, T } from '../i18n';

/**
 * An order's words on the customer's own pages (loaded with them, not with the store's first
 * page): its statuses, how it is paid, and what cancelling it now would do, from its data (the
 * API's own sentences are the spec's English).
 */
/** What the customer's order says about cancelling now, from its data (the API's own sentence is English). */
export function cancellationText(t: T, order: TWebOrder, money: (minor: number) => string, now = Date.now()) {
  const c = order.cancellation;
  if (order.status === 'Canceled') return t('cancelReasonCancelled');
  if (order.partner_booking) return t('cancelReasonPartner');
  if (c.allowed) {
    if (order.paid <= 0) return t('cancelReasonFree');
    return c.refund > 0 ? t('cancelReasonRefund', { amount: money(c.refund) }) : t('cancelReasonNoRefund');
  }
  const open = order.bookings.filter((b) => b.status !== 'Canceled');
  if (open.length === 0) return t('cancelReasonNothingLeft');
  if (open.some((b) => new Date(b.starts_at).getTime() <= now)) return t('cancelReasonStarted');
  return t('cancelReasonNoPolicy');
}

const ORDER_STATUS: Record<string, StoreKey> = { Created: 'orderStatusCreated', Confirmed: 'orderStatusConfirmed', Canceled: 'orderStatusCanceled' };
const PAYMENT_STATUS: Record<string, StoreKey> = {
  'Not paid': 'paymentStatusNotPaid',
  'Partially paid': 'paymentStatusPartiallyPaid',
  'Fully paid': 'paymentStatusFullyPaid',
  'Refund due': 'paymentStatusRefundDue',
  Refunded: 'paymentStatusRefunded',
};
const PAYMENT_OPTION: Record<string, StoreKey> = { pay_on_site: 'paymentOptionPayOnSite', online: 'paymentOptionOnline' };

export const orderStatusText = (t: T, status: string) => (ORDER_STATUS[status] ? t(ORDER_STATUS[status]) : status);
export const paymentStatusText = (t: T, status: string) => (PAYMENT_STATUS[status] ? t(PAYMENT_STATUS[status]) : status);
export const paymentOptionText = (t: T, option: string) => (PAYMENT_OPTION[option] ? t(PAYMENT_OPTION[option]) : option);
