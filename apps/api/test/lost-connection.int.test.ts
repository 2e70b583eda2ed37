import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { fromDatabase } from '../src/lib/errors';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * A connection lost while a transaction holds it (the server restarted, PgBouncer restarted) fails
 * that transaction and nothing else: the process lives on and the pool serves the next one. Before
 * it, pg's client emitted an 'error' event nobody listened to once the pool had handed it out, and
 * Node ended the process (`npm run chaos` saw every API process die at a primary's restart).
 * PostgreSQL server only (PGlite has no connections to lose).
 */
let testDb: TestDatabase | undefined;
afterAll(async () => {
  await testDb?.drop();
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('a connection lost in a transaction', () => {
  it('fails that transaction, and the process and the pool go on', async () => {
    testDb = await createTestDatabase();
    const { db } = testDb.database;
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const admin = new pg.Client({ connectionString: testDb.url });
      await admin.connect();
      let seen = false;
      const failed = await db
        .transaction(async (tx) => {
          const { rows } = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
          // Between two statements, as when a transaction waits for Stripe: the server ends this backend.
          await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
          await new Promise((r) => setTimeout(r, 300));
          seen = true;
          await tx.execute(sql`select 1`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      await admin.end();
      expect(seen).toBe(true);
      expect(failed).toBeInstanceOf(Error);
      expect(uncaught).toEqual([]);
      // What the transaction throws (its ROLLBACK's failure on the dead client) answers a 503 to send again, not a 500.
      expect(fromDatabase(failed)?.status).toBe(503);
      // The pool dropped the dead connection: the next transaction works.
      const again = (await db.transaction(async (tx) => tx.execute(sql`select 41 + 1 as n`))) as unknown as { rows: { n: number }[] };
      expect(again.rows[0]!.n).toBe(42);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  }, 30_000);
});
