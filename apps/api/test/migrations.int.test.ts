import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../src/db/client';
import { MigrationError, readMigrations, runMigrations, type Migration, type SqlSession } from '../src/db/migrate';
import { createTestDatabase } from './harness';

/**
 * The migration runner (src/db/migrate.ts): each migration in its own transaction with a lock
 * timeout, recorded as drizzle-kit records it, and one process at a time under an advisory lock.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const apiDir = fileURLToPath(new URL('..', import.meta.url));
const made: string[] = [];

/** A fresh, empty database of the engine under test, and a session on it. */
async function emptyDatabase(): Promise<{ session: SqlSession; url?: string; close(): Promise<void> }> {
  if (serverUrl) {
    const name = `tourdesk_m_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    made.push(name);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    return {
      url: url.toString(),
      session: { query: async (t, p) => (await client.query(t, p)) as never, exec: async (s) => void (await client.query(s)) },
      close: () => client.end(),
    };
  }
  const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  return {
    session: { query: async (t, p) => (await db.query(t, p)) as never, exec: async (s) => void (await db.exec(s)) },
    close: () => db.close(),
  };
}

afterAll(async () => {
  if (!serverUrl || made.length === 0) return;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const migration = (when: number, tag: string, ...statements: string[]): Migration => ({ tag, when, hash: tag, statements });
const recorded = async (session: SqlSession) =>
  (await session.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations order by id')).rows.map((r) => Number(r.created_at));

describe('a database behind the code', () => {
  it('is told apart by its migrations and by the definitions, grants and queues of its last run', async () => {
    const testDb = await createTestDatabase();
    try {
      const { database } = testDb;
      expect(await database.pending()).toEqual([]);
      // The code's functions or queues changed since the last run (a release without a migration).
      await database.asOwner((tx) => tx.execute(sql`update drizzle.tourdesk_definitions set fingerprint = 'an older release'`));
      expect(await database.pending()).toEqual(['src/db/functions (definitions, grants, job queues)']);
      expect(await database.migrate()).toEqual([]);
      expect(await database.pending()).toEqual([]);
      // A migration the database lacks.
      await database.asOwner((tx) => tx.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`));
      expect(await database.pending()).toEqual([readMigrations(MIGRATIONS_DIR).at(-1)!.tag]);
    } finally {
      await testDb.drop();
    }
  });
});

describe('the migration runner', () => {
  it('applies each migration in its own transaction: a failing one is rolled back alone, named, and the next run resumes there', async () => {
    const { session, close } = await emptyDatabase();
    try {
      const first = migration(1, '0001_first', 'create table one (id int)', 'insert into one values (1)');
      const broken = migration(2, '0002_broken', 'create table two (id int)', 'insert into two values (1)', 'select no_such_function()');
      await expect(runMigrations(session, { migrations: [first, broken], lockTimeoutMs: 1000 })).rejects.toThrow(/Migration 0002_broken failed and was rolled back/);
      expect(await recorded(session)).toEqual([1]);
      expect((await session.query('select * from one')).rows).toEqual([{ id: 1 }]);
      // Nothing of the failed migration is left: its table was rolled back with it.
      expect((await session.query<{ found: string | null }>(`select to_regclass('two')::text as found`)).rows[0]!.found).toBeNull();
      const mended = migration(2, '0002_broken', 'create table two (id int)');
      expect(await runMigrations(session, { migrations: [first, mended], lockTimeoutMs: 1000 })).toEqual(['0002_broken']);
      expect(await recorded(session)).toEqual([1, 2]);
      expect(await runMigrations(session, { migrations: [first, mended], lockTimeoutMs: 1000 })).toEqual([]);
    } finally {
      await close();
    }
  });

  it.runIf(Boolean(serverUrl))('gives up after the lock timeout when a migration needs a lock another session holds, leaving the database as it was', async () => {
    const { session, url, close } = await emptyDatabase();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await runMigrations(session, { migrations: [migration(1, '0001_table', 'create table busy (id int)')], lockTimeoutMs: 1000 });
      // A long transaction reads the table (ACCESS SHARE): an ALTER TABLE must wait for it.
      await other.query('begin');
      await other.query('select * from busy');
      const started = Date.now();
      const error = await runMigrations(session, { migrations: [migration(1, '0001_table'), migration(2, '0002_alter', 'alter table busy add column name text')], lockTimeoutMs: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(/0002_alter.*lock timeout/);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await recorded(session)).toEqual([1]);
      await other.query('rollback');
      expect(await runMigrations(session, { migrations: [migration(1, '0001_table'), migration(2, '0002_alter', 'alter table busy add column name text')], lockTimeoutMs: 300 })).toEqual(['0002_alter']);
    } finally {
      await other.end();
      await close();
    }
  });

  it.runIf(Boolean(serverUrl))('lets two processes migrate one empty database at the same moment: each migration runs once', async () => {
    const { session, url, close } = await emptyDatabase();
    try {
      const run = () =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'src/migrate-cli.ts'], {
            cwd: apiDir,
            env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          child.stdout.on('data', (d) => (output += d));
          child.stderr.on('data', (d) => (output += d));
          child.on('exit', (code) => resolve({ code, output }));
        });
      const [a, b] = await Promise.all([run(), run()]);
      expect(a.code, a.output).toBe(0);
      expect(b.code, b.output).toBe(0);
      const all = readMigrations(MIGRATIONS_DIR);
      // One of them applied everything, the other found nothing left to do.
      expect([a.output, b.output].filter((o) => o.includes(`Applied ${all.length} migration(s)`))).toHaveLength(1);
      expect([a.output, b.output].filter((o) => o.includes('The database is up to date.'))).toHaveLength(1);
      expect(await recorded(session)).toEqual(all.map((m) => m.when));
      expect((await session.query<{ n: number }>('select count(*)::int as n from subscription_tier')).rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
