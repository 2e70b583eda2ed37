import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { JOB_SCHEMA } from '../../lib/jobs';
import { execute } from '../../db/execute';

/**
 * An organisation's failed jobs, read from pg-boss's own table (the index job_failed_by_account,
 * lib/jobs.ts, serves the filter and the order).
 */
const job = sql.raw(`${JOB_SCHEMA}.job`);
const failedOf = (account: string) => sql`state = 'failed' and data->>'account' = ${account}`;

export interface FailedRow {
  id: string;
  name: string;
  subject: string | null;
  recipient: string | null;
  retry_count: number;
  output: { message?: string } | null;
  created_on: Date | string;
  completed_on: Date | string | null;
}

export async function countFailed(db: Db, account: string) {
  const rows = (await execute<{ n: number }>(db, sql`select count(*)::int as n from ${job} where ${failedOf(account)}`));
  return Number(rows.rows[0]!.n);
}

export async function pageFailed(db: Db, account: string, limit: number, offset: number) {
  const rows = (await execute<FailedRow>(db, sql`
    select id, name, data->>'subject' as subject, data->>'to' as recipient, retry_count, output, created_on, completed_on
    from ${job} where ${failedOf(account)}
    order by completed_on desc, id desc limit ${limit} offset ${offset}`));
  return rows.rows;
}

/**
 * Puts a failed job back in its queue with its retries counted from zero (pg-boss's own retry()
 * only adds one attempt); answers its queue, or null when the organisation has no such failed job.
 */
export async function requeueFailed(db: Db, account: string, id: string) {
  const rows = (await execute<{ name: string }>(db, sql`
    update ${job} set state = 'retry', retry_count = 0, start_after = now(), started_on = null, completed_on = null, output = null
    where id = ${id}::uuid and ${failedOf(account)}
    returning name`));
  return rows.rows[0]?.name ?? null;
}
