import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The schema's migrations, run by the owner role (`npm run migrate`, and at start unless turned
 * off), on either engine:
 * - one process at a time: a session-level advisory lock (MIGRATION_LOCK_KEY) is held from the
 *   first read of the applied list to the end, so two processes that start together run each
 *   migration once (the second waits, then finds nothing left to do);
 * - each migration in its own transaction, with a lock_timeout: a migration that needs a lock a
 *   busy table will not give (a long transaction, a long report) fails after that time with its
 *   name, instead of queueing every request behind it; the ones before it stay applied;
 * - the record is drizzle-kit's own (`drizzle.__drizzle_migrations`, the hash and `when` of each
 *   journal entry), so databases migrated before keep their history;
 * - then the job queue's schema and queues (pg-boss, lib/jobs.ts), and, in one more transaction,
 *   the current definition of every database function, view and grant (src/db/functions, applied
 *   at every run: CREATE OR REPLACE).
 */

/** Any number that is the same in every process: guards concurrent migrations. */
export const MIGRATION_LOCK_KEY = 727_274_001;

/** What the runner needs of a connection: one session, statements with or without parameters. */
export interface SqlSession {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
  /** One or more statements without parameters. */
  exec(script: string): Promise<void>;
}

export interface Migration {
  tag: string;
  /** The journal's `when`: what drizzle records and compares. */
  when: number;
  hash: string;
  statements: string[];
}

/** The migrations of a folder made by drizzle-kit, in journal order. */
export function readMigrations(folder: string): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map(({ tag, when }) => {
    const text = readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
    return {
      tag,
      when,
      hash: createHash('sha256').update(text).digest('hex'),
      statements: text.split('--> statement-breakpoint').filter((s) => s.trim() !== ''),
    };
  });
}

export class MigrationError extends Error {
  constructor(
    readonly tag: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const code = (cause as { code?: string } | null)?.code;
    const hint = code === '55P03' ? ' (a lock it needs was held by another session longer than the lock timeout: try again when the database is quieter)' : '';
    super(`Migration ${tag} failed and was rolled back: ${reason}${hint}`, { cause });
  }
}

export interface MigrateOptions {
  migrations: Migration[];
  /**
   * What else the code defines in the database besides migrations (the functions, views and grants,
   * the job queues), as one fingerprint: recorded after a run, so a start without migrations can
   * tell a database that is behind the code (pendingMigrations).
   */
  fingerprint?: string;
  /** Run after the migrations, before the definitions (which grant on what it makes): the job queue's schema. */
  prepare?: () => Promise<void>;
  /** Run after the migrations, in a transaction of its own: the functions, views and grants. */
  definitions?: string;
  /** How long a statement of a migration waits for a lock, in milliseconds. */
  lockTimeoutMs: number;
  /** Work to do under the same advisory lock once the schema is current (reference data). */
  after?: () => Promise<void>;
}

/** Applies what is not yet applied; answers the tags it applied. */
export async function runMigrations(session: SqlSession, options: MigrateOptions): Promise<string[]> {
  await session.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await session.exec(`create schema if not exists drizzle;
      create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint);
      create table if not exists drizzle.tourdesk_definitions (id int primary key check (id = 1), fingerprint text not null, applied_at timestamptz not null default now())`);
    const last = await session.query<{ created_at: string | number }>('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1');
    const lastAt = Number(last.rows[0]?.created_at ?? 0);
    const applied: string[] = [];
    for (const m of options.migrations) {
      if (m.when <= lastAt) continue;
      await inTransaction(session, options.lockTimeoutMs, m.tag, async () => {
        for (const statement of m.statements) await session.exec(statement);
        await session.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.when]);
      });
      applied.push(m.tag);
    }
    await options.prepare?.();
    if (options.definitions) {
      const definitions = options.definitions;
      await inTransaction(session, options.lockTimeoutMs, 'src/db/functions', () => session.exec(definitions));
    }
    await options.after?.();
    if (options.fingerprint) {
      await session.query(
        `insert into drizzle.tourdesk_definitions (id, fingerprint) values (1, $1) on conflict (id) do update set fingerprint = excluded.fingerprint, applied_at = now()`,
        [options.fingerprint],
      );
    }
    return applied;
  } finally {
    await session.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}

async function inTransaction(session: SqlSession, lockTimeoutMs: number, tag: string, work: () => Promise<void>) {
  await session.exec('begin');
  try {
    await session.query(`select set_config('lock_timeout', $1, true)`, [`${lockTimeoutMs}ms`]);
    await work();
    await session.exec('commit');
  } catch (error) {
    await session.exec('rollback').catch(() => undefined);
    throw new MigrationError(tag, error);
  }
}

/**
 * What the database lacks of the code (empty: current): the tags of migrations not applied, and
 * `src/db/functions` when the definitions, grants or queues recorded by the last run differ.
 */
export async function pendingMigrations(session: SqlSession, migrations: Migration[], fingerprint?: string): Promise<string[]> {
  const exists = await session.query<{ found: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as found`);
  if (!exists.rows[0]?.found) return migrations.map((m) => m.tag);
  const last = await session.query<{ created_at: string | number }>('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1');
  const lastAt = Number(last.rows[0]?.created_at ?? 0);
  const pending = migrations.filter((m) => m.when > lastAt).map((m) => m.tag);
  if (fingerprint) {
    const recorded = await session.query<{ fingerprint: string }>(
      `select fingerprint from drizzle.tourdesk_definitions where id = 1`,
    ).catch(() => ({ rows: [] as { fingerprint: string }[] }));
    if (recorded.rows[0]?.fingerprint !== fingerprint) pending.push('src/db/functions (definitions, grants, job queues)');
  }
  return pending;
}
