import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createTestApp, testConfig, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The web store's limits with REDIS_URL set (issue 29): the counts live in Redis, not in the
 * database, and a second process of the API on the same Redis refuses the address the first one
 * counted. Redis runs beside PostgreSQL on these machines (127.0.0.1:6379); the address is new on
 * every run, so earlier runs' counts never meet this one's.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const env = { REDIS_URL, STORE_CARTS_PER_ADDRESS: '3', STORE_CHALLENGE_AFTER_CARTS: '100' };
const ADDRESS = `203.0.113.${randomInt(1, 255)}`;
const HOST = 'redisshop.localhost';

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let redis: Redis;
/** The second process, closed with the first after the tests. */
let second: Awaited<ReturnType<typeof buildApp>> | undefined;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { ...env, SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'redisshop', currency: 'EUR' });
  expect((await owner.post('/api/stores/', { name: 'Redis shop', slug: `redis-${randomInt(1e6)}` })).statusCode).toBe(201);
  redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
});
afterAll(async () => {
  await redis?.quit();
  await second?.close();
  await t?.close();
  await sink?.close();
});

describe('the web store’s limits in Redis', () => {
  it('counts carts in Redis, and a second process on the same Redis refuses the address at once', async () => {
    const slug = ((await owner.get('/api/stores/')).json().results as { slug: string }[])[0]!.slug;
    const cart = (app: TestApp['app']) => app.inject({ method: 'POST', url: `/api/web-stores/${slug}/carts/`, headers: { host: HOST, origin: `http://${HOST}` }, remoteAddress: ADDRESS });
    const made = [];
    for (let i = 0; i < 4; i++) made.push((await cart(t.app)).statusCode);
    expect(made).toEqual([201, 201, 201, 429]);
    // Nothing of it in the database's counters; the keys are in Redis.
    const inDatabase = (await t.database.db.execute(sql`select count(*)::int as n from rate_limit where key like 'rl:%'`)) as unknown as { rows: { n: number }[] };
    expect(inDatabase.rows[0]!.n).toBe(0);
    expect((await redis.keys('tourdesk-rl:*')).length).toBeGreaterThan(0);
    second = await buildApp({ config: testConfig({ ...env, SMTP_URL: sink.url }), database: t.database });
    const res = await cart(second);
    expect(res.statusCode, res.body).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
