import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../src/database';
import type { Database } from '../src/db/client';
import { fromDatabase } from '../src/lib/errors';
import { JOB_SCHEMA, QUEUES, startJobs } from '../src/lib/jobs';
import { createSealer } from '../src/lib/sealed';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * The database out of reach for a moment (its server or PgBouncer restarting), here a TCP relay
 * between the pool and the server that is cut and opened again: a request's statement fails as a
 * 503 the client may send again (not a 500), and the job queue's statements wait for it, so the job
 * that was running when it went is still marked done: pg-boss 10 does not await that statement, and
 * its failure was a rejection nobody handled, which ends the process (`npm run chaos`), with the job
 * left active to run again once it expires. PostgreSQL server only.
 */
let testDb: TestDatabase | undefined;
let relayed: Database | undefined;
let relay: { port: number; cut(): Promise<void>; open(): Promise<void>; close(): Promise<void> } | undefined;
afterAll(async () => {
  await relayed?.close().catch(() => undefined);
  await relay?.close();
  await testDb?.drop();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP relay to `port` on 127.0.0.1: cut() drops every connection and refuses new ones until open(). */
async function tcpRelay(port: number) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (at: number) =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(port, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      }).listen(at, '127.0.0.1', () => resolve((server!.address() as { port: number }).port));
    });
  const own = await listen(0);
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return { port: own, cut, open: async () => void (await listen(own)), close: cut };
}

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the database out of reach for a moment', () => {
  it('answers a request 503, and the job running then is still marked done', async () => {
    testDb = await createTestDatabase();
    const direct = new URL(testDb.url!);
    relay = await tcpRelay(Number(direct.port || 5432));
    const through = new URL(direct);
    through.host = `127.0.0.1:${relay.port}`;
    relayed = await openAppDatabase({ url: through.toString(), ownerUrl: direct.toString(), poolSize: 4 });

    // A request's statement while the database is out of reach: a 503 with Retry-After.
    await relay.cut();
    const failed = await relayed.db.execute(sql`select 1`).then(
      () => null,
      (error: unknown) => error,
    );
    await relay.open();
    const answer = fromDatabase(failed);
    expect(answer?.status).toBe(503);
    expect(answer?.headers['retry-after']).toBe('1');

    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const sealer = createSealer({ kid: 'k', key: randomBytes(32) }, () => undefined);
    const jobs = await startJobs(relayed.sql, pino({ level: 'silent' }), { stopTimeoutMs: 5_000, sealer });
    try {
      // The job's work ends while the database is out of reach (cut during it, back a second later).
      await jobs.work<{ probe: string }>(QUEUES.idempotencyPurge, async () => {
        await relay!.cut();
        setTimeout(() => void relay!.open(), 1_000);
        return { ok: true };
      });
      const id = await jobs.send(QUEUES.idempotencyPurge, { probe: 'p1' });
      jobs.wake(QUEUES.idempotencyPurge);
      let state = '';
      for (const until = Date.now() + 20_000; Date.now() < until; await sleep(200)) {
        const { rows } = (await testDb.database.db.execute(sql.raw(`select state::text from ${JOB_SCHEMA}.job where id = '${id}'`))) as unknown as { rows: { state: string }[] };
        state = rows[0]?.state ?? '';
        if (state === 'completed') break;
      }
      expect(state).toBe('completed');
      expect(unhandled).toEqual([]);
    } finally {
      await jobs.stop();
      process.off('unhandledRejection', onUnhandled);
    }
  }, 60_000);
});
