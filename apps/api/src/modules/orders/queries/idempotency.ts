import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { idempotencyKey } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute, touched } from '../../../db/execute';

/** Idempotency keys: a key's row, the response kept with it, and the purge of old ones. */

/** How long a key's response is kept, in hours (Stripe's 24 h). */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** Whose key, for which kind of request: a key is unique per organisation, user and scope. */
export interface KeyOwner {
  account_id: string;
  user_id: string;
  scope: string;
  key: string;
}

const ofKey = (who: KeyOwner) => and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, who.scope), eq(idempotencyKey.key, who.key));

/**
 * Inserts the key's row first, with no response yet: a new key, or one older than 24 hours (taken
 * over as new). Answers false when a younger row holds the key; a concurrent insert of the same key
 * waits here until the first transaction ends.
 */
export async function claimKey(ctx: TenantCtx, who: KeyOwner, hash: string) {
  const inserted = await ctx.tx
    .insert(idempotencyKey)
    .values({ ...who, request_hash: hash, status: 0, response: sql`'null'::jsonb` })
    .onConflictDoUpdate({
      target: [idempotencyKey.account_id, idempotencyKey.user_id, idempotencyKey.scope, idempotencyKey.key],
      set: { request_hash: hash, status: 0, response: sql`'null'::jsonb`, created_at: sql`now()` },
      setWhere: sql`${idempotencyKey.created_at} <= now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})`,
    })
    .returning({ key: idempotencyKey.key });
  return inserted.length > 0;
}

/** The key's row: the request's hash, and the status and response kept. */
export async function keptKey(ctx: TenantCtx, who: KeyOwner) {
  const [kept] = await ctx.tx.select().from(idempotencyKey).where(ofKey(who));
  return kept!;
}

/** Keeps the response of the key's request, with its status. */
export async function keepResponse(ctx: TenantCtx, who: KeyOwner, status: number, response: unknown) {
  await ctx.tx
    .update(idempotencyKey)
    .set({ status, response: response as object })
    .where(ofKey(who));
}

/** Forgets keys older than 24 hours (run with the periodic sweep); answers how many went. */
export async function purgeIdempotencyKeys(db: Db) {
  const result = (await execute(db, sql`delete from ${idempotencyKey} where created_at <= now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})`));
  return touched(result);
}
