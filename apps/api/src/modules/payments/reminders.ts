import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { inTenant } from '../../lib/tenancy';
import { queueOrderMail } from '../order-mail/service';
import { recordAudit } from '../orders/order-basics';
import { newPaymentLink } from './new-link';
import * as q from './queries';

/**
 * The reminders of deposits' balances (issue 32; the job `balance-reminders`): each order paid by a
 * deposit whose balance is due within its store's `balance_reminder_days` (3 unless set) gets one
 * e-mail with a new payment link for what is left, once (`orders.balance_reminder_sent_at`, set in
 * the transaction that queues it). An order cancelled or fully paid meanwhile is skipped; so is one
 * whose payment links cannot be paid (no connected account that takes charges): it is marked, and
 * staff see its balance on the dashboard.
 */
export async function queueBalanceReminders(db: Db, config: Config, jobs: Jobs) {
  const due = await q.ordersDueBalanceReminders(db);
  let queued = 0;
  for (const r of due) {
    await inTenant(db, r.account_id, async (tx) => {
      const ctx: TenantCtx = { tx, accountId: r.account_id, currency: '' };
      const marked = await q.markBalanceReminderSent(ctx, r.order_id);
      if (!marked) return;
      const link = await newPaymentLink(ctx, config, r.order_id).catch((error: unknown) => {
        if (error instanceof AppError) return null;
        throw error;
      });
      if (!link) return;
      await queueOrderMail(jobs, tx, { account: r.account_id, store: marked.store_id, order: r.order_id, kind: 'balance-reminder', pay: link.url, to: link.email, subject: 'Balance reminder' });
      await recordAudit(ctx, { order: r.order_id, subject: 'order', subjectId: r.order_id, action: 'balance reminder sent', changes: { email: link.email, amount: link.due, currency: link.currency } });
      queued += 1;
    });
  }
  if (queued > 0) jobs.wake(QUEUES.orderMail);
  return queued;
}
