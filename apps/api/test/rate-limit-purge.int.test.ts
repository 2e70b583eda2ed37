import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forgetOldCounters, hit } from '../src/lib/throttle';
import { createTestApp, type TestApp } from './harness';

/** The hourly purge forgets only counters no window can still need (every window is a day at most). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

it('forgets counters started more than two days ago and keeps the rest', async () => {
  const db = t.database.db;
  await hit(db, 'purge:old', 60);
  await hit(db, 'purge:day', 60);
  await hit(db, 'purge:fresh', 60);
  await db.execute(sql`update rate_limit set window_start = now() - interval '3 days' where key = 'purge:old'`);
  await db.execute(sql`update rate_limit set window_start = now() - interval '1 day' where key = 'purge:day'`);
  expect(await forgetOldCounters(db)).toBeGreaterThanOrEqual(1);
  const keys = ((await db.execute(sql`select key from rate_limit where key like 'purge:%' order by key`)) as unknown as { rows: { key: string }[] }).rows.map((r) => r.key);
  expect(keys).toEqual(['purge:day', 'purge:fresh']);
});
