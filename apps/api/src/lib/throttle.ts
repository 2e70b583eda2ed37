import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { AppError } from './errors';
import { execute } from '../db/execute';

/**
 * Fixed-window counters in the database, so every API instance shares them.
 * `hit` counts one event (or `events` at once) and answers how many fell in the current window.
 */
export async function hit(db: Db, key: string, windowSeconds: number, events = 1): Promise<{ count: number; retryAfter: number }> {
  const result = (await execute<{ count: number; retry_after: number }>(db, sql`
    insert into rate_limit (key, window_start, count) values (${key}, now(), ${events})
    on conflict (key) do update set
      count = case when rate_limit.window_start < now() - make_interval(secs => ${windowSeconds}) then ${events} else rate_limit.count + ${events} end,
      window_start = case when rate_limit.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else rate_limit.window_start end
    returning count, greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))))::int as retry_after
  `));
  const row = result.rows[0]!;
  return { count: Number(row.count), retryAfter: Number(row.retry_after) };
}

/**
 * Forgets counters no window can still need: every window is a day at most (the settings' limit),
 * so a counter last started two days ago counts nothing. Hourly (jobs: rate-limit-purge); answers
 * how many were forgotten.
 */
export async function forgetOldCounters(db: Db) {
  const result = (await execute(db, sql`delete from rate_limit where window_start < now() - interval '2 days' returning 1`));
  return result.rows.length;
}

/** The current count without adding to it. */
export async function peek(db: Db, key: string, windowSeconds: number): Promise<{ count: number; retryAfter: number }> {
  const result = (await execute<{ count: number; retry_after: number }>(db, sql`
    select count, greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))))::int as retry_after
    from rate_limit where key = ${key} and window_start >= now() - make_interval(secs => ${windowSeconds})
  `));
  const row = result.rows[0];
  return row ? { count: Number(row.count), retryAfter: Number(row.retry_after) } : { count: 0, retryAfter: 0 };
}

/**
 * One attempt under a growing delay, decided and counted in one statement (so concurrent attempts,
 * from any process, are counted exactly): past `free` counted attempts, the next is counted only
 * once `min(maxDelay, 2^(count - free))` seconds have passed since the last counted one; until then
 * it is refused (not counted, so refusals never lengthen the wait) with the seconds left, and
 * whether that wait is already the longest (`atMaxDelay`: then a caller may let a proof of work
 * through instead, counted by `countAttempt()`). `forgetAfter` seconds after the last counted
 * attempt, the count starts afresh. `reset()` clears it.
 */
export async function attemptWithBackoff(
  db: Db,
  key: string,
  { free, maxDelaySeconds, forgetAfterSeconds }: { free: number; maxDelaySeconds: number; forgetAfterSeconds: number },
): Promise<{ allowed: true; count: number } | { allowed: false; retryAfter: number; atMaxDelay: boolean }> {
  const delay = (count: SQL) => sql`make_interval(secs => least(${maxDelaySeconds}::float8, power(2::float8, greatest(0, ${count} - ${free}))))`;
  const counted = (await execute<{ count: number }>(db, sql`
    insert into rate_limit as r (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when r.window_start < now() - make_interval(secs => ${forgetAfterSeconds}) then 1 else r.count + 1 end,
      window_start = now()
    where r.window_start < now() - make_interval(secs => ${forgetAfterSeconds})
       or r.count < ${free}
       or r.window_start + ${delay(sql`r.count`)} <= now()
    returning count
  `));
  if (counted.rows[0]) return { allowed: true, count: Number(counted.rows[0].count) };
  const waiting = (await execute<{ retry_after: number; at_max: boolean }>(db, sql`
    select greatest(1, ceil(extract(epoch from (window_start + ${delay(sql`count`)} - now()))))::int as retry_after,
           power(2::float8, greatest(0, count - ${free})) >= ${maxDelaySeconds}::float8 as at_max
    from rate_limit where key = ${key}
  `));
  const row = waiting.rows[0];
  return { allowed: false, retryAfter: Number(row?.retry_after ?? 1), atMaxDelay: row?.at_max === true };
}

/**
 * Counts one attempt of `attemptWithBackoff()`'s key without its wait (one that carried a proof of
 * work): it lengthens the next wait as any counted attempt does.
 */
export async function countAttempt(db: Db, key: string, forgetAfterSeconds: number) {
  await db.execute(sql`
    insert into rate_limit as r (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when r.window_start < now() - make_interval(secs => ${forgetAfterSeconds}) then 1 else r.count + 1 end,
      window_start = now()
  `);
}

export async function reset(db: Db, key: string) {
  await db.execute(sql`delete from rate_limit where key = ${key}`);
}

/**
 * 429 with Retry-After. With `challenge`, a solved proof of work (X-Altcha) would let the call
 * through now: its code is then `challenge_required` (attr `x-altcha`), still a 429.
 */
export class ThrottledError extends AppError {
  constructor(
    readonly retryAfter: number,
    challenge?: { detail: string },
  ) {
    const wait = `Too many attempts. Try again in ${retryAfter < 60 ? `${retryAfter} second(s)` : `${Math.ceil(retryAfter / 60)} minute(s)`}.`;
    if (challenge) super('challenge_required', `${wait} ${challenge.detail}`, 'x-altcha', [], 429);
    else super('throttled', wait);
    this.headers = { 'retry-after': String(retryAfter) };
  }
}
