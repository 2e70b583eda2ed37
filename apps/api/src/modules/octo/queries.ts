import { and, eq } from 'drizzle-orm';
import { octoBooking } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';

/**
 * A reservation's row, locked FOR UPDATE: every change of one booking UUID (confirm, extend,
 * update, cancel) waits for the one before it, so two confirms of one UUID make one order — the
 * second finds it CONFIRMED. In a file of its own so a test can replace it (test/octo.int.test.ts
 * shows the race without the lock).
 */
export async function lockReservation(ctx: TenantCtx, uuid: string) {
  const [row] = await ctx.tx
    .select()
    .from(octoBooking)
    .where(and(eq(octoBooking.account_id, ctx.accountId), eq(octoBooking.uuid, uuid)))
    .for('update');
  return row;
}
