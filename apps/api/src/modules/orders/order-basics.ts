import { displayAnswer } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { fromDatabase, notFound } from '../../lib/errors';
import { insertAuditEvent } from './queries/audit';
import { questionsByIds } from './queries/experiences';
import { lockOrderRow } from './queries/orders';
import { releaseSeats, sellNow } from './queries/bookings';
import { offerFreedSeats } from '../waitlist/service';

/** What every part of the orders module uses: the order's lock, the audit trail, a person's name, an amount in a message. */

/**
 * Gives a cancelled line's seats back to its slot (locked by the caller), then offers them to the
 * slot's waiting list first, in the same transaction and under the same lock (waitlist/service.ts):
 * every cancellation gives seats back here.
 */
export async function giveBackSeats(ctx: TenantCtx, slotId: string, seats: number) {
  await releaseSeats(ctx, slotId, seats);
  await offerFreedSeats(ctx, slotId);
}

/** The transaction's checkouts not sold yet, sold now (tourdesk_sell_pending()); a refusal as the API answers it. */
export async function sellPendingNow(ctx: TenantCtx) {
  try {
    await sellNow(ctx);
  } catch (error) {
    throw fromDatabase(error) ?? error;
  }
}

/**
 * The order row, locked for the rest of the transaction (payments and line changes serialise on it).
 * A checkout of this transaction not sold yet (sold at the commit, tourdesk_sale_at_commit()) is sold
 * first, so a change of its order in the same transaction (a cancellation, a line changed) finds its
 * seats booked. A payment (`keepSalePending`: a voucher or the counter's payment right after the
 * checkout) reads no seats, and leaves the sale for the commit.
 */
export async function lockOrder(ctx: TenantCtx, id: string, { keepSalePending = false } = {}) {
  if (!keepSalePending) await sellPendingNow(ctx);
  const row = await lockOrderRow(ctx, id);
  if (!row) throw notFound('No order with this id.');
  return row;
}

/** One who/when/what entry of an order's audit trail; the actor is the signed-in user. */
export async function recordAudit(ctx: TenantCtx, e: { order: string | null; subject: 'order' | 'line' | 'payment' | 'invoice'; subjectId: string; action: string; changes?: Record<string, unknown> }) {
  await insertAuditEvent(ctx, { order_id: e.order, subject: e.subject, subject_id: e.subjectId, action: e.action, changes: e.changes ?? {}, actor_id: ctx.userId ?? null });
}

export const personName = (first: string | null, last: string | null, email: string | null) => [first, last].filter(Boolean).join(' ') || email || '';

/** An amount as a message to the user writes it, with the currency's code and its own decimals: "EUR 68.00", "JPY 1,200". */
/** Money in the API's messages: the one rule, moneyText() in the contracts. */
export { moneyText as messageMoney } from '@tourdesk/contracts';

/**
 * The booking questions that answers refer to (by id, one query for a page of bookings), and the
 * answers as staff read them: each with its question's text, blank ones left out, yes/no as Yes/No.
 */
export async function answeredQuestions(ctx: TenantCtx, answerSets: Record<string, unknown>[]) {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const ids = [...new Set(answerSets.flatMap((a) => Object.keys(a).filter((k) => UUID.test(k))))];
  const rows = ids.length ? await questionsByIds(ctx, ids) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return (answers: Record<string, unknown>) =>
    Object.entries(answers)
      .filter(([, answer]) => String(answer ?? '').trim() !== '')
      .map(([id, answer]) => ({ question: byId.get(id)?.question ?? 'Question', answer: displayAnswer(byId.get(id)?.answer_type, String(answer)) }));
}
