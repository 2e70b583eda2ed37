import { toMajorText, type TOrderSummary, type TPayment } from '@tourdesk/contracts';
import { isLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { order } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { csvDocument } from '../../lib/csv';
import { AppError, fromDatabase, notFound } from '../../lib/errors';
import { lockSlot, seatsLeft, sweepSlot } from '../availability/slots';
import { rateOf, sellLine, vatRates } from './sale';
import { openBookingTerms, splitFee, termsOf } from './cancellation';
import { giveBackSeats, messageMoney } from './order-basics';
import { offerFreedSeats } from '../waitlist/service';
import { auditOfOrder } from './queries/audit';
import * as bookingQueries from './queries/bookings';
import { sellingLanguages } from '../organization/queries';
import { customerIdOf, findOrInsertCustomer, upsertCustomer } from './queries/customers';
import * as q from './queries/orders';
import * as paymentQueries from './queries/payments';
import { priceOf } from './queries/sale';
import { bookingEvent, checkAnswers, lockOrder, orderEvent, orderSummary, personName, presentOrder, recomputeOrder, recordAudit, saleWords, writeOrder, type CustomerDetails } from './records';

/** The orders list and everything an operator does to an order, its lines and its payments. */

type ListFilter = q.OrderListFilter;

export const countOrders = q.countOrders;

/** A page of orders, filtered, ordered and paged in SQL (two statements: see pageOrderRows()). */
export async function pageOrders(ctx: TenantCtx, f: ListFilter, limit: number, offset: number): Promise<TOrderSummary[]> {
  const rows = await q.pageOrderRows(ctx, f, limit, offset);
  return rows.map((r) => orderSummary(r.o, r.c, { first: r.seller_first, last: r.seller_last, email: r.seller_email }, Number(r.lines), r.store_name));
}

/** The sellers (and stores) that occur in this organisation's orders, for the list's filters. */
export async function filterOptions(ctx: TenantCtx) {
  const sellers = await q.orderSellers(ctx);
  const stores = await q.orderStores(ctx);
  return {
    sellers: sellers.map((s) => ({ id: s.id, name: personName(s.first, s.last, s.email) })).sort((a, b) => a.name.localeCompare(b.name)),
    stores: stores.sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/**
 * A back-office order made directly (not from a cart): every line priced and checked by
 * tourdesk_price, its slot locked (in id order), its seats checked against capacity, booked and
 * held, then written — all lines or none.
 */
export async function createOrder(ctx: TenantCtx, input: { customer: CustomerDetails; lines: { slot: string; quantities: Record<string, number>; extras: Record<string, number> }[]; answers: Record<string, string>; notes: string; language?: Language; promo_code?: string }) {
  const priced = [];
  for (const [i, line] of input.lines.entries()) {
    const p = await priceOf(ctx, line.slot, line.quantities, line.extras).catch((thrown: unknown) => {
      // Name the line in the field: lines.0.quantities.
      const error = fromDatabase(thrown) ?? thrown;
      if (error instanceof AppError) error.items[0]!.attr = `lines.${i}.${error.items[0]!.attr ?? 'slot'}`;
      throw error;
    });
    priced.push({ ...line, ...p });
  }
  await checkAnswers(ctx, [...new Set(input.lines.map((l) => l.slot))], input.answers);
  const needed = new Map<string, number>();
  for (const p of priced) needed.set(p.slot, (needed.get(p.slot) ?? 0) + p.seats);
  // The customer's row and the reference before the slots, in the order a checkout takes them (its customer when it
  // writes the order, its slots at its commit): a sale at the counter and a checkout for the same
  // customer and departure at once wait for each other instead of deadlocking. writeOrder() writes
  // the same row again, already locked.
  // (A team member's own sale updates the customer; a partner's or a reseller's finds or makes it unchanged, as writeOrder() does.)
  await (ctx.userId ? upsertCustomer(ctx, input.customer) : findOrInsertCustomer(ctx, input.customer));
  // The reference too (its organisation's sequence for the year may be made by this sale, and
  // another sale of the organisation waits for that to commit: never while holding a slot).
  const reference = await bookingQueries.orderReference(ctx);
  for (const slotId of [...needed.keys()].sort()) await secureSeats(ctx, slotId, needed.get(slotId)!, 0);
  const id = await writeOrder(ctx, {
    reference,
    userId: ctx.userId!,
    language: input.language,
    customer: input.customer,
    answers: input.answers,
    notes: input.notes,
    promoCode: input.promo_code,
    lines: priced.map((p) => ({ slot_id: p.slot, experience_id: p.experience_id, quantities: p.quantities, extras: p.extras, seats: p.seats, total: p.total, items: p.items, currency: p.currency })),
  });
  return presentOrder(ctx, id);
}

/**
 * Locks a slot and checks that `seats` more fit (beside `released` seats this change gives back),
 * sweeping the slot's expired holds first so they never block a sale.
 */
async function secureSeats(ctx: TenantCtx, slotId: string, seats: number, released: number) {
  await lockSlot(ctx, slotId);
  await sweepSlot(ctx.tx, slotId);
  const s = await lockSlot(ctx, slotId);
  // Seats remaining (the one definition, tourdesk_seats_left) once expired holds are swept, plus what this change gives back.
  const remaining = (await seatsLeft(ctx, slotId)) + released;
  if (seats > remaining) {
    throw new AppError('sold_out', remaining <= 0 ? 'Sold out: no seats are left in this time slot.' : `Sold out: only ${remaining} seat${remaining === 1 ? '' : 's'} left in this time slot.`, 'quantities');
  }
  return s;
}

export async function updateOrder(ctx: TenantCtx, id: string, patch: { notes?: string; customer?: string; language?: Language }) {
  const before = await lockOrder(ctx, id);
  const set: Partial<typeof order.$inferInsert> = { updated_at: new Date() };
  const changes: Record<string, unknown> = {};
  if (patch.notes !== undefined && patch.notes !== before.notes) {
    set.notes = patch.notes;
    changes.notes = [before.notes, patch.notes];
  }
  if (patch.customer !== undefined && patch.customer !== before.customer_id) {
    const customerId = await customerIdOf(ctx, patch.customer);
    if (!customerId) throw new AppError('invalid', 'No customer with this id in your organisation.', 'customer');
    set.customer_id = customerId;
    // Another customer: the order shows that customer's record, not the details given with the sale.
    Object.assign(set, { customer_email: null, customer_first_name: null, customer_last_name: null, customer_phone: null, customer_country: null });
    changes.customer = [before.customer_id, customerId];
  }
  if (patch.language !== undefined && patch.language !== before.language) {
    set.language = patch.language;
    changes.language = [before.language, patch.language];
  }
  await q.updateOrderRow(ctx, id, set);
  if (Object.keys(changes).length) await recordAudit(ctx, { order: id, subject: 'order', subjectId: id, action: 'updated', changes });
  return presentOrder(ctx, id);
}

/** Only an order with no confirmed bookings and no payments can be deleted. */
export async function deleteOrder(ctx: TenantCtx, id: string) {
  await lockOrder(ctx, id);
  const open = await q.countOpenBookings(ctx, id);
  const paid = await q.countPayments(ctx, id);
  if (open > 0) throw new AppError('conflict', 'This order has bookings that are not cancelled: it cannot be deleted. Cancel it instead.');
  if (paid > 0) throw new AppError('conflict', 'This order has payments: it cannot be deleted. Cancel it instead.');
  // An issued invoice keeps its number: the sequence has no gaps.
  if (await q.hasAnyInvoice(ctx, id)) throw new AppError('conflict', 'This order has an invoice: it cannot be deleted. Cancel it instead.');
  await q.deleteOrderRow(ctx, id);
}

/** Confirms an order that waits for it (an experience confirmed by hand): it and its lines become Confirmed. */
export async function confirmOrder(ctx: TenantCtx, id: string) {
  const o = await lockOrder(ctx, id);
  if (o.status === 'Canceled') throw new AppError('conflict', 'This order is cancelled: it cannot be confirmed.');
  if (o.status === 'Confirmed') throw new AppError('conflict', 'This order is already confirmed.');
  await bookingQueries.confirmCreatedBookings(ctx, id);
  await q.markOrderConfirmed(ctx, id);
  await recordAudit(ctx, { order: id, subject: 'order', subjectId: id, action: 'confirmed', changes: { status: [o.status, 'Confirmed'] } });
  return presentOrder(ctx, id);
}

/** Cancels one line: its seats go back to its slot at once; the order's totals follow. */
export async function cancelLine(ctx: TenantCtx, orderId: string, lineId: string) {
  await lockOrder(ctx, orderId);
  const b = await ownLine(ctx, orderId, lineId);
  if (b.status === 'Canceled') throw new AppError('conflict', 'This line is already cancelled.');
  await lockSlot(ctx, b.slot_id);
  await giveBackSeats(ctx, b.slot_id, b.seats);
  await bookingQueries.markBookingCanceled(ctx, b.id);
  await recomputeOrder(ctx, orderId);
  await recordAudit(ctx, { order: orderId, subject: 'line', subjectId: b.id, action: 'cancelled', changes: { status: [b.status, 'Canceled'], seats_released: b.seats } });
  await bookingEvent(ctx, 'booking.cancelled', orderId, [b.id]);
  return presentOrder(ctx, orderId);
}

/**
 * Cancels every line still open (seats released) and the order; payments stay, to be refunded.
 * Free of charge by default (staff's choice, as before). `keepCancellationFee` cancels under the
 * cancellation policy as it applies now (the one rule, cancellationTerms(), read under the order's
 * lock): the organisation keeps what was paid less the policy's refund as the order's cancellation
 * fee, split over the lines cancelled now pro rata by gross; refused (409) when the policy does not
 * allow cancelling now. The customer's cancel on their booking page always keeps it. `now` is the
 * moment the policy is read at (the demo data replays a cancellation of the past).
 */
export async function cancelOrder(ctx: TenantCtx, id: string, options: { keepCancellationFee?: boolean; now?: Date } = {}) {
  const o = await lockOrder(ctx, id);
  if (o.status === 'Canceled') throw new AppError('conflict', 'This order is already cancelled.');
  const open = await bookingQueries.openBookingsBySlot(ctx, id);
  let fee = 0;
  let shares = new Map<string, number>();
  if (options.keepCancellationFee) {
    const lines = await openBookingTerms(ctx, id);
    const terms = termsOf(lines, o.paid, o.total, options.now);
    if (!terms.allowed) {
      const why = lines.every((l) => l.rules?.length) ? 'a booking of this order has started' : 'a booking of this order has no cancellation policy';
      throw new AppError('conflict', `No cancellation fee can be kept under the policy now: ${why}. Cancel free of charge instead.`, 'keep_cancellation_fee');
    }
    fee = terms.fee;
    shares = splitFee(fee, lines);
  }
  for (const b of open) {
    await lockSlot(ctx, b.slot_id);
    await giveBackSeats(ctx, b.slot_id, b.seats);
  }
  const at = new Date();
  await bookingQueries.cancelOpenBookings(ctx, id, at);
  for (const [bookingId, share] of shares) {
    if (share > 0) await bookingQueries.setBookingCancellationFee(ctx, bookingId, share);
  }
  await q.markOrderCanceled(ctx, id, at);
  await recomputeOrder(ctx, id);
  await recordAudit(ctx, {
    order: id,
    subject: 'order',
    subjectId: id,
    action: 'cancelled',
    changes: { status: [o.status, 'Canceled'], lines_cancelled: open.length, ...(options.keepCancellationFee ? { cancellation_fee: fee } : {}) },
  });
  await bookingEvent(ctx, 'booking.cancelled', id, open.map((b) => b.id));
  await orderEvent(ctx, 'order.cancelled', id);
  return presentOrder(ctx, id);
}

async function ownLine(ctx: TenantCtx, orderId: string, lineId: string) {
  const b = await bookingQueries.bookingOfOrder(ctx, orderId, lineId);
  if (!b) throw notFound('No line with this id in this order.');
  return b;
}

/**
 * Changes a line's quantities (and extras): priced again, its slot locked and the seats it needs
 * beyond its own checked against what is left, the slot's booked seats and the order's totals
 * updated — one transaction.
 */
export async function changeLine(ctx: TenantCtx, orderId: string, lineId: string, input: { quantities: Record<string, number>; extras?: Record<string, number> }) {
  const o = await lockOrder(ctx, orderId);
  const b = await ownLine(ctx, orderId, lineId);
  if (b.status === 'Canceled') throw new AppError('invalid', 'A cancelled line cannot be changed.', 'quantities');
  // A partner's resale keeps what was sold (its commission is fixed at sale): cancel it, and the partner sells again.
  if (b.partnership_id) throw new AppError('conflict', 'A partner sold this line: its commission was fixed at sale, so it is not changed. Cancel it and let the partner book again.', 'quantities');
  // A promo code's discount was fixed on this line at sale (its share of the code's amount, minimum and limits then).
  if (b.discount > 0) throw new AppError('conflict', 'This line was sold with a promo code discount, fixed at sale: it is not changed. Cancel it and sell the new quantities again.', 'quantities');
  const extras = input.extras ?? b.extras;
  const p = await priceOf(ctx, b.slot_id, input.quantities, extras);
  await secureSeats(ctx, b.slot_id, p.seats, b.seats);
  await bookingQueries.bookSeats(ctx, b.slot_id, p.seats - b.seats);
  // Fewer seats than before: the ones given back go to the slot's waiting list first.
  if (p.seats < b.seats) await offerFreedSeats(ctx, b.slot_id);
  // Only this line is priced anew, at today's prices and VAT rate; the order's other lines keep theirs.
  const rate = rateOf(await vatRates(ctx, [b.experience_id]), b.experience_id);
  // Its items' labels in the order's language, as a sale writes them (saleWords()).
  const language = isLanguage(o.language) ? o.language : 'en';
  const words = await saleWords(ctx, language, (await sellingLanguages(ctx.tx, { id: ctx.accountId }))[0]!, [b.experience_id], p.items);
  await bookingQueries.updateBookingSale(ctx, b.id, { quantities: input.quantities, extras, seats: p.seats, ...sellLine(p.items, rate, b.items[0]?.sold_as, words.label) });
  await recomputeOrder(ctx, orderId);
  await recordAudit(ctx, { order: orderId, subject: 'line', subjectId: b.id, action: 'changed', changes: { quantities: [b.quantities, input.quantities], seats: [b.seats, p.seats], total: [b.total, p.total] } });
  await bookingEvent(ctx, 'booking.changed', orderId, [b.id]);
  return presentOrder(ctx, orderId);
}

// --- payments ---------------------------------------------------------------------------------

function presentPayment(p: paymentQueries.PaymentRow['p'], who: { first: string | null; last: string | null; email: string | null }, refunded: number): TPayment {
  return {
    id: p.id,
    order: p.order_id,
    amount: p.amount,
    currency: p.currency,
    method: p.method as TPayment['method'],
    reference: p.reference,
    kind: p.amount < 0 ? 'refund' : 'payment',
    refund_of: p.refund_of,
    reason: p.reason,
    refunded,
    status: p.status as TPayment['status'],
    recorded_by: p.recorded_by ? { id: p.recorded_by, name: personName(who.first, who.last, who.email) } : null,
    created_at: p.created_at.toISOString(),
  };
}

export async function listPayments(ctx: TenantCtx, orderId: string) {
  await presentOrderExists(ctx, orderId);
  return (await paymentQueries.paymentsOfOrder(ctx, orderId)).map((r) => presentPayment(r.p, r, Number(r.refunded)));
}

export async function getPayment(ctx: TenantCtx, orderId: string, id: string) {
  const r = await paymentQueries.paymentOfOrder(ctx, orderId, id);
  if (!r) throw notFound('No payment with this id in this order.');
  return presentPayment(r.p, r, Number(r.refunded));
}

async function presentOrderExists(ctx: TenantCtx, orderId: string) {
  if (!(await q.orderExists(ctx, orderId))) throw notFound('No order with this id.');
}

/**
 * Records a payment (positive) or a refund (negative) under the order's lock, in the order's
 * currency. A payment is never above what is left to pay, and a cancelled order takes refunds only.
 * A refund gives money back from one payment of the order (`refund_of`), never more than is left of
 * it, with a reason; its method is the payment's unless another is given. Paid, refunded and the
 * payment status follow (recomputeOrder).
 */
/**
 * `settle` makes a payment real at its provider before it is written, under the same locks (an
 * online refund goes back to the card through Stripe first): it answers the provider's id of it
 * and where it stands there — `succeeded`, or `pending` (written as a pending refund, counted as
 * refunded until the provider says it succeeded or failed: settleProviderRefund()).
 */
export interface PaymentSettlement {
  settle: (paid: { id: string; method: string; provider_ref: string | null }, amount: number) => Promise<{ ref: string; status: 'succeeded' | 'pending' }>;
}

export async function recordPayment(
  ctx: TenantCtx,
  orderId: string,
  input: { amount: number; currency: string; method: string; reference: string; refund_of?: string | null; reason?: string; provider_ref?: string; status?: 'succeeded' | 'pending' },
  settlement?: PaymentSettlement,
  /** A voucher payment's refund may go another way: its voucher is cancelled or expired (gift-vouchers' refundsElsewhere()). */
  voucherClosed = false,
) {
  const o = await lockOrder(ctx, orderId, { keepSalePending: true });
  if (input.currency !== o.currency) throw new AppError('invalid', `This order is in ${o.currency}: record the payment in ${o.currency}.`, 'currency');
  // An online payment is recorded by the payment provider's confirmation, never by hand; its refund goes through the provider.
  if (input.method === 'online' && !input.provider_ref && !(settlement && input.amount < 0)) {
    throw new AppError('invalid', 'Online payments are recorded when the payment provider confirms them: choose how this money was paid.', 'method');
  }
  // A gift voucher's payment is recorded by redeemVoucher() (gift-vouchers), which takes it off the voucher; its refund goes back on the voucher.
  if (input.method === 'voucher' && (input.amount > 0 ? !input.provider_ref : !settlement)) {
    throw new AppError('invalid', 'A gift voucher pays with its code: give the voucher code.', 'voucher_code');
  }
  const reason = (input.reason ?? '').trim();
  if (input.amount > 0) {
    if (input.refund_of) throw new AppError('invalid', 'Only a refund (a negative amount) refers to a payment.', 'refund_of');
    if (o.status === 'Canceled') throw new AppError('invalid', 'This order is cancelled: it takes refunds only.', 'amount');
    const balance = o.total - o.paid;
    if (input.amount > balance) {
      throw new AppError('invalid', balance <= 0 ? 'This order is fully paid: nothing is left to pay.' : `That is more than is left to pay (${messageMoney(balance, o.currency)}).`, 'amount');
    }
  } else {
    if (!input.refund_of) throw new AppError('required', 'Choose the payment this refund gives back.', 'refund_of');
    if (!reason) throw new AppError('required', 'Say why the money is refunded.', 'reason');
    // The refunded payment's row is locked with the order's: two refunds of it are checked one after the other.
    const paid = await paymentQueries.lockPaymentOfOrder(ctx, orderId, input.refund_of);
    if (!paid || paid.p.amount < 0) throw new AppError('invalid', 'Choose a payment of this order (not a refund).', 'refund_of');
    const elsewhere = paid.p.method === 'voucher' && voucherClosed && input.method !== 'voucher' && input.method !== 'online';
    if ((paid.p.method === 'voucher') !== (input.method === 'voucher') && !elsewhere) {
      throw new AppError('invalid', paid.p.method === 'voucher' ? 'A gift voucher payment is refunded to its voucher, never in cash: choose the method voucher.' : 'Only a gift voucher payment is refunded to a gift voucher.', 'method');
    }
    // What is left counts pending refunds (they may still go through), not failed ones.
    const left = paid.p.amount - Number(paid.refunded);
    if (-input.amount > left) throw new AppError('invalid', left <= 0 ? 'This payment was refunded in full already.' : `A refund cannot be larger than what is left of this payment (${messageMoney(left, o.currency)}).`, 'amount');
    if (-input.amount > o.paid) throw new AppError('invalid', `A refund cannot be larger than what was paid (${messageMoney(o.paid, o.currency)}).`, 'amount');
    if (settlement) {
      const settled = await settlement.settle({ id: paid.p.id, method: paid.p.method, provider_ref: paid.p.provider_ref }, -input.amount);
      input = { ...input, provider_ref: settled.ref, status: settled.status };
    }
  }
  const p = await paymentQueries.insertPayment(ctx, {
    order_id: orderId,
    amount: input.amount,
    currency: input.currency,
    method: input.method,
    reference: input.reference,
    refund_of: input.amount < 0 ? input.refund_of! : null,
    reason,
    provider_ref: input.provider_ref ?? null,
    status: input.amount < 0 ? (input.status ?? 'succeeded') : 'succeeded',
    recorded_by: ctx.userId ?? null,
  });
  await q.addToOrderPaid(ctx, orderId, input.amount);
  await recomputeOrder(ctx, orderId);
  await recordAudit(ctx, {
    order: orderId,
    subject: 'payment',
    subjectId: p.id,
    action: input.amount > 0 ? 'payment recorded' : 'refund recorded',
    changes: { amount: input.amount, currency: input.currency, method: input.method, reference: input.reference, ...(input.amount < 0 ? { refund_of: input.refund_of, reason, status: p.status } : {}) },
  });
  // Paid: the payment that makes the order fully paid; refunded: every refund recorded.
  if (input.amount < 0) await orderEvent(ctx, 'order.refunded', orderId);
  else if (o.payment_status !== 'Fully paid' && (await lockOrder(ctx, orderId)).payment_status === 'Fully paid') await orderEvent(ctx, 'order.paid', orderId);
  return getPayment(ctx, orderId, p.id);
}

/**
 * The provider finished a refund it had answered pending (or one it had made fails later): a
 * pending refund that succeeded becomes final; one that failed is reversed in the books — its
 * amount back in the order's paid and out of refunded, the payment status following — and counts
 * nowhere from then on. Under the order's lock; once (a refund already in that state is left as it
 * is). Answers false when no refund of the order carries this reference.
 */
export async function settleProviderRefund(ctx: TenantCtx, orderId: string, providerRef: string, outcome: 'succeeded' | 'failed', detail = ''): Promise<false | { changed: boolean; amount: number; method: string }> {
  await lockOrder(ctx, orderId);
  const r = await paymentQueries.lockPaymentByProviderRef(ctx, orderId, providerRef);
  if (!r || r.amount >= 0) return false;
  if (r.status === outcome || r.status === 'failed' || (outcome === 'succeeded' && r.status !== 'pending')) return { changed: false, amount: r.amount, method: r.method };
  await paymentQueries.setPaymentStatus(ctx, r.id, outcome);
  if (outcome === 'failed') {
    await q.takeBackRefund(ctx, orderId, r.amount);
    await recomputeOrder(ctx, orderId);
  }
  await recordAudit(ctx, {
    order: orderId,
    subject: 'payment',
    subjectId: r.id,
    action: outcome === 'failed' ? 'refund failed' : 'refund succeeded',
    changes: { amount: r.amount, currency: r.currency, status: { from: r.status, to: outcome }, ...(detail ? { detail } : {}) },
  });
  return { changed: true, amount: r.amount, method: r.method };
}

// --- audit trail ------------------------------------------------------------------------------

export async function listAudit(ctx: TenantCtx, orderId: string) {
  await presentOrderExists(ctx, orderId);
  const rows = await auditOfOrder(ctx, orderId);
  return rows.map(({ e, first, last, email }) => ({
    id: e.id,
    subject: e.subject as 'order' | 'line' | 'payment' | 'invoice',
    subject_id: e.subject_id,
    action: e.action,
    changes: e.changes,
    actor: e.actor_id ? { id: e.actor_id, name: personName(first, last, email) } : null,
    created_at: e.created_at.toISOString(),
  }));
}

// --- CSV export -------------------------------------------------------------------------------

/** At most this many orders go into one export. */
export const EXPORT_LIMIT = 50_000;
/**
 * The filtered list as CSV. Amounts are plain numbers with a dot and the currency's own decimals
 * (12.50 EUR, 1200 JPY, 1.250 KWD; negative ones as -12.50), as spreadsheets read them.
 */
export async function ordersCsv(ctx: TenantCtx, f: ListFilter) {
  const rows = await pageOrders(ctx, f, EXPORT_LIMIT, 0);
  const header = ['reference', 'created_at', 'status', 'payment_status', 'customer_name', 'customer_email', 'seller', 'lines', 'currency', 'sold_total', 'total', 'paid', 'refunded', 'balance'];
  const major = (minor: number, currency: string) => ({ amount: toMajorText(minor, currency) });
  return csvDocument(
    header,
    rows.map((o) => [o.reference, o.created_at, o.status, o.payment_status, `${o.customer.first_name} ${o.customer.last_name}`.trim(), o.customer.email, o.seller?.name ?? '', o.lines, o.currency, major(o.sold_total, o.currency), major(o.total, o.currency), major(o.paid, o.currency), major(o.refunded, o.currency), major(o.total - o.paid, o.currency)]),
  );
}
