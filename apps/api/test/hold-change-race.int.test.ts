import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS_DIR } from '../src/db/functions';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Two changes of one held line at the same moment (issue 28). The capacity is 10; the cart holds a
 * line of 3 and another of 2. One change (3 → 1) holds the slot's lock while a second asks the same
 * line for 10 seats: once the first commits, 8 seats are free for the line (10 − 2), so the second
 * is sold out with "only 8 seats left". tourdesk_hold reads the line's seats again after the slot's
 * lock (slot, then line); with that read moved back before the lock — as it was — the second
 * change counts the 3 seats the line no longer has and asks for 12 of 10, which only the database's
 * CHECK stops. On the PostgreSQL server only: it needs two connections at once.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let exp: { id: string; category: string };
let me: { id: string; base_account: { id: string } };

/** tourdesk_hold as src/db/functions defines it. */
const HOLD = (() => {
  const file = readFileSync(path.join(FUNCTIONS_DIR, '04-carts.sql'), 'utf8');
  const start = file.indexOf('CREATE OR REPLACE FUNCTION tourdesk_hold(');
  return file.slice(start, file.indexOf('END $$;', start) + 'END $$;'.length);
})();
const LOCK = 'PERFORM 1 FROM slot WHERE id = v_slot FOR NO KEY UPDATE;';
const READ = 'SELECT seats INTO v_own FROM cart_line WHERE id = p_line FOR UPDATE;';
/** The same function reading the line's seats before the slot's lock (and its pools' locks). */
const HOLD_READING_FIRST = (() => {
  expect(HOLD).toContain(LOCK);
  expect(HOLD).toContain(READ);
  return HOLD.replace(READ, 'PERFORM 1;').replace(LOCK, `SELECT seats INTO v_own FROM cart_line WHERE id = p_line;\n  ${LOCK}`);
})();
const install = (definition: string) => t.database.asOwner((tx) => tx.execute(sql.raw(definition)));

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'linerace', time_zone: 'Europe/Zurich' });
  me = (await owner.get('/api/users/me/')).json();
  exp = await sellableExperience(owner, 'Race kayak');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
});
afterEach(() => install(HOLD));
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** A fresh departure of capacity 10 with the cart's lines of 3 and 2 on it; the first line's id. */
async function twoLines(day: number) {
  const date = addDays(todayIn('Europe/Zurich'), day);
  const [s] = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${date}`)).json() as { id: string }[];
  await t.database.asOwner((tx) => tx.execute(sql`update slot set capacity = 10 where id = ${s!.id}`));
  for (const line of (await owner.get('/api/cart/')).json().lines) await owner.delete(`/api/cart/lines/${line.id}/`);
  const first = await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 3 } });
  expect(first.statusCode, first.body).toBe(201);
  expect((await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 2 } })).statusCode).toBe(201);
  const line = ((await owner.get('/api/cart/')).json().lines as { id: string; seats: number }[]).find((l) => l.seats === 3)!;
  return { slot: s!.id, line: line.id };
}

/** The first change (3 → 1) holds the slot's lock on its own connection while the second asks for 10. */
async function raceOnLine(day: number) {
  const { slot, line } = await twoLines(day);
  const first = new pg.Client({ connectionString: t.url });
  await first.connect();
  try {
    await first.query('begin');
    await first.query('select tourdesk_hold($1, $2, $3, $4::jsonb, $5::jsonb)', [me.base_account.id, me.id, line, JSON.stringify({ [exp.category]: 1 }), '{}']);
    const second = owner.patch(`/api/cart/lines/${line}/`, { quantities: { [exp.category]: 10 } });
    // The second change is waiting for the slot's lock.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await first.query('commit');
    const res = await second;
    const [state] = ((await t.database.asOwner((tx) => tx.execute(sql`select held, capacity from slot where id = ${slot}`))) as unknown as { rows: { held: number; capacity: number }[] }).rows;
    return { res, held: state!.held };
  } finally {
    await first.end();
  }
}

describe.runIf(onServer)('two changes of one held line at once', () => {
  it('decides the second on the seats the line has after the first: sold out with 8 left, 3 seats held', async () => {
    const { res, held } = await raceOnLine(3);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errors[0]).toMatchObject({ code: 'sold_out', detail: 'Sold out: only 8 seats left in this time slot.' });
    expect(held).toBe(3);
  });

  it('with the line read before the slot’s lock, counts seats the line no longer has (the race the order prevents)', async () => {
    await install(HOLD_READING_FIRST);
    const { res, held } = await raceOnLine(4);
    // It asked the slot for 12 seats of 10: only the database's CHECK refused it, not the rule.
    expect(res.json().errors[0].detail).toBe('Sold out: these seats are no longer free in this time slot.');
    expect(held).toBe(3);
  });
});
