import { and, eq, gte, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TenantCtx } from '../src/lib/crud';
import { todayIn } from '../src/lib/local-time';
import type * as SlotQueries from '../src/modules/availability/queries/slots';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * One lock order for slots (issue 28): changing a schedule rule updates every future slot of the
 * offer; it locks them in id order first, as checkout does, not in the start-time order its upsert
 * would. Shown on the PostgreSQL server (two connections): the latest departure is given the
 * smallest id and locked by another transaction; the rule change then waits on it before locking
 * anything else, so the earliest departure stays free. With the lock in id order switched off (the
 * same read without FOR NO KEY UPDATE), the upsert has locked the earliest departure by then.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);
const lock = vi.hoisted(() => ({ off: false }));
vi.mock('../src/modules/availability/queries/slots', async (importOriginal) => {
  const real = await importOriginal<typeof SlotQueries>();
  const schema = await import('../src/db/schema');
  return {
    ...real,
    lockSlotsFrom(ctx: TenantCtx, experienceId: string, from: Date) {
      if (!lock.off) return real.lockSlotsFrom(ctx, experienceId, from);
      const s = schema.slot;
      return ctx.tx.select({ id: s.id, starts_at: s.starts_at }).from(s).where(and(eq(s.account_id, ctx.accountId), eq(s.experience_id, experienceId), gte(s.starts_at, from)));
    },
  };
});

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let exp: { id: string; category: string; rule: string };

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'lockorder', time_zone: 'UTC' });
  exp = await sellableExperience(owner, 'Lock order tour');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const SMALLEST = '00000000-0000-4000-8000-000000000001';
const input = (capacity: number) => ({ experience: exp.id, valid_from: todayIn('UTC'), start_times: ['10:00'], capacity });

/** While the latest departure (given the smallest id) is locked elsewhere, can the earliest one be locked? */
async function earliestFreeDuringRuleChange(capacity: number) {
  const slots = ((await t.database.asOwner((tx) => tx.execute(sql`select id from slot where experience_id = ${exp.id} and starts_at > now() order by starts_at`))) as unknown as { rows: { id: string }[] }).rows;
  expect(slots.length).toBeGreaterThan(10);
  const [earliest, latest] = [slots[0]!.id, slots.at(-1)!.id];
  if (latest !== SMALLEST) await t.database.asOwner((tx) => tx.execute(sql`update slot set id = ${SMALLEST} where id = ${latest}`));
  const [holder, probe] = [new pg.Client({ connectionString: t.url }), new pg.Client({ connectionString: t.url })];
  await Promise.all([holder.connect(), probe.connect()]);
  try {
    await holder.query('begin');
    await holder.query('select 1 from slot where id = $1 for no key update', [SMALLEST]);
    const change = owner.put(`/api/schedule-rules/${exp.rule}/`, input(capacity));
    await new Promise((resolve) => setTimeout(resolve, 700));
    await probe.query('begin');
    const free = await probe
      .query('select 1 from slot where id = $1 for no key update nowait', [earliest])
      .then(() => true)
      .catch((e: { code?: string }) => (e.code === '55P03' ? false : Promise.reject(e)));
    await probe.query('rollback');
    await holder.query('commit');
    const res = await change;
    expect(res.statusCode, res.body).toBe(200);
    return free;
  } finally {
    await Promise.all([holder.end(), probe.end()]);
  }
}

describe.runIf(onServer)('changing a schedule rule locks its departures in id order', () => {
  it('waits on the first id before locking any other departure', async () => {
    expect(await earliestFreeDuringRuleChange(9)).toBe(true);
  });

  it('with the lock in id order switched off, has locked the earliest departure first (start-time order)', async () => {
    lock.off = true;
    try {
      expect(await earliestFreeDuringRuleChange(10)).toBe(false);
    } finally {
      lock.off = false;
    }
  });
});
