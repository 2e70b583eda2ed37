import type { TFailedJob } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { countFailed, pageFailed, requeueFailed, type FailedRow } from './queries';

/**
 * The organisation's failed jobs (e-mails whose retries are spent), as its Owners see them: what it
 * was, to whom, how often it was tried and why it failed. Neither the body nor its links leave the
 * server.
 */
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const present = (r: FailedRow): TFailedJob => ({
  id: r.id,
  queue: r.name,
  summary: r.subject ?? r.name,
  recipient: r.recipient,
  attempts: Number(r.retry_count) + 1,
  error: r.output?.message ?? 'failed',
  created_at: iso(r.created_on)!,
  failed_at: iso(r.completed_on),
});

/** How many of the organisation's jobs failed. */
export const failedCount = (db: Db, accountId: string) => countFailed(db, accountId);

/** One page of them, newest first. */
export async function failedPage(db: Db, accountId: string, limit: number, offset: number): Promise<TFailedJob[]> {
  return (await pageFailed(db, accountId, limit, offset)).map(present);
}

/** Puts a failed job back in the queue with its retries from zero; answers its queue's name (undefined: no such job). */
export const retryFailed = (db: Db, accountId: string, id: string) => requeueFailed(db, accountId, id);
