import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMA, QUEUES, startJobs } from '../src/lib/jobs';
import { createSealer } from '../src/lib/sealed';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * Stopping the job queue while a worker's fetch is still in flight: pg-boss's own stop() resolves
 * at once (no worker holds a job yet), the fetch then brings a job back, and pg-boss completes it
 * without awaiting. If the connections were closed in between, that completion is an unhandled
 * rejection (it failed a whole CI run) and the job stays active until it expires. The queue's
 * stop() waits for the fetch, the handler and the completion.
 */
let testDb: TestDatabase | undefined;
afterAll(async () => {
  await testDb?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('stopping the job queue', () => {
  it('waits for a fetch in flight, runs the job it brings and completes it before resolving', async () => {
    testDb = await createTestDatabase();
    const { database } = testDb;
    const sealer = createSealer({ kid: 'k', key: randomBytes(32) }, () => undefined);
    const jobs = await startJobs(database.sql, pino({ level: 'silent' }), { stopTimeoutMs: 5_000, sealer });
    const handled: string[] = [];
    await jobs.work<{ probe: string }>(QUEUES.idempotencyPurge, async (data) => {
      handled.push(data.probe);
      return { ok: true };
    });
    await sleep(300); // the worker's first fetch (an empty queue) is over; it now waits for its next poll
    const id = await jobs.send(QUEUES.idempotencyPurge, { probe: 'p1' });

    // Hold the worker's next fetch: on a server, another session locks pg-boss's job table; on
    // PGlite, a transaction holds the one connection.
    let release: () => Promise<void>;
    if (database.engine === 'postgres') {
      const blocker = new pg.Client({ connectionString: testDb.url });
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query(`lock table ${JOB_SCHEMA}.job in access exclusive mode`);
      release = async () => {
        await blocker.query('commit');
        await blocker.end();
      };
    } else {
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const holding = database.db.transaction(() => gate);
      release = async () => {
        open();
        await holding;
      };
    }
    jobs.wake(QUEUES.idempotencyPurge);
    await sleep(200);

    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await sleep(400);
    expect(stopped, 'stop() resolved while the fetch was still waiting').toBe(false);
    await release();
    await stopping;

    expect(handled).toEqual(['p1']);
    const { rows } = (await database.sql.executeSql(`select state from ${JOB_SCHEMA}.job where id = $1`, [id])) as { rows: { state: string }[] };
    expect(rows[0]?.state).toBe('completed');
  });
});
