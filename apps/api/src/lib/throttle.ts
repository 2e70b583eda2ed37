import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { AppError } from './errors';

/**
 * Fixed-window counters in the database, so every API instance shares them.
 * `hit` counts one event (or `events` at once) and answers how many fell in the current window.
 */
export async function hit(db: Db, key: string, windowSeconds: number, events = 1): Promise<{ count: number; retryAfter: number }> {
  const result = (await db.execute(sql`
    insert into rate_limit (key, window_start, count) values (${key}, now(), ${events})
    on conflict (key) do update set
      count = case when rate_limit.window_start < now() - make_interval(secs => ${windowSeconds}) then ${events} else rate_limit.count + ${events} end,
      window_start = case when rate_limit.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else rate_limit.window_start end
    returning count, greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))))::int as retry_after
  `)) as unknown as { rows: { count: number; retry_after: number }[] };
  const row = result.rows[0]!;
  return { count: Number(row.count), retryAfter: Number(row.retry_after) };
}

/** The current count without adding to it. */
export async function peek(db: Db, key: string, windowSeconds: number): Promise<{ count: number; retryAfter: number }> {
  const result = (await db.execute(sql`
    select count, greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))))::int as retry_after
    from rate_limit where key = ${key} and window_start >= now() - make_interval(secs => ${windowSeconds})
  `)) as unknown as { rows: { count: number; retry_after: number }[] };
  const row = result.rows[0];
  return row ? { count: Number(row.count), retryAfter: Number(row.retry_after) } : { count: 0, retryAfter: 0 };
}

export async function reset(db: Db, key: string) {
  await db.execute(sql`delete from rate_limit where key = ${key}`);
}

export class ThrottledError extends AppError {
  constructor(readonly retryAfter: number) {
    super('throttled', `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`);
    this.headers = { 'retry-after': String(retryAfter) };
  }
}
