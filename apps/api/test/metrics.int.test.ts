import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../src/database';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, until, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, PASSWORD } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * /metrics (Prometheus text) is refused without its token, and its figures move with the work done:
 * requests by route pattern, errors by the envelope's code, holds, orders, e-mails, the job queue
 * and the database pool. Request logs carry the request id, the route pattern and, once the caller
 * is known, the organisation's id.
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
let sink: MailSink;
let owner: Browser;
const lines: string[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'gauges' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
/** The text exposition format, parsed: one sample a line, comments skipped. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!.replace(/\\(.)/g, '$1');
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}
async function scrape() {
  const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return parse(res.body);
}
/** The sum of a metric's samples whose labels include `labels`. */
const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

describe('/metrics', () => {
  it('is refused without its bearer token, and absent without METRICS_TOKEN', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-token-for-tests-0123456788' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors[0].code).toBe('not_authenticated');
    const off = await createTestApp();
    try {
      expect((await off.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('counts requests by route pattern, errors by code, holds, orders, e-mails, jobs and the pool', async () => {
    const before = await scrape();
    const exp = await sellableExperience(owner, 'Metered walk');
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const date = addDays(todayIn('UTC'), 3);
    const [slot] = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${date}`)).json() as { id: string }[];
    const held = await owner.post('/api/cart/lines/', { slot: slot!.id, quantities: { [exp.category]: 2 } });
    expect(held.statusCode, held.body).toBe(201);
    // 8 seats, 2 held: 7 more are refused by the hold itself.
    const refused = await owner.post('/api/cart/lines/', { slot: slot!.id, quantities: { [exp.category]: 7 } });
    expect(refused.statusCode, refused.body).toBe(409);
    const sold = await owner.post('/api/cart/checkout/', { customer: { email: 'metered@example.com', first_name: 'Meg', last_name: 'Meter' } });
    expect(sold.statusCode, sold.body).toBe(201);
    const orderId = (sold.json() as { id: string }).id;
    expect((await owner.get(`/api/orders/${orderId}/`)).statusCode).toBe(200);
    const missing = await owner.get('/api/orders/00000000-0000-4000-8000-000000000000/');
    expect(missing.statusCode).toBe(404);
    // An e-mail through the job queue to the SMTP sink (a password reset).
    const sentBefore = sink.countTo('owner@gauges.test');
    await t.app.inject({ method: 'POST', url: '/api/users/reset_password/', payload: { email: 'owner@gauges.test' } });
    await until('the reset e-mail', async () => sink.countTo('owner@gauges.test') > sentBefore);
    // The counter moves just after the SMTP server's answer.
    await until('the e-mail counted', async () => value(await scrape(), 'tourdesk_emails_total', { result: 'sent' }) > value(before, 'tourdesk_emails_total', { result: 'sent' }));

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    // By the route's pattern, never the address.
    expect(moved('tourdesk_http_requests_total', { method: 'GET', route: '/api/orders/:id/', status: '200' })).toBe(1);
    expect(moved('tourdesk_http_requests_total', { method: 'GET', route: '/api/orders/:id/', status: '404' })).toBe(1);
    expect(after.some((s) => s.labels.route?.includes(orderId))).toBe(false);
    expect(moved('tourdesk_http_request_duration_seconds_count', { method: 'GET', route: '/api/orders/:id/' })).toBe(2);
    expect(moved('tourdesk_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/orders/:id/', le: '+Inf' })).toBe(2);
    expect(moved('tourdesk_http_errors_total', { status: '404', code: 'not_found' })).toBeGreaterThanOrEqual(1);
    expect(moved('tourdesk_holds_total', { result: 'held' })).toBe(1);
    expect(moved('tourdesk_holds_total', { result: 'refused' })).toBe(1);
    expect(moved('tourdesk_orders_total')).toBe(1);
    expect(moved('tourdesk_emails_total', { result: 'sent' })).toBeGreaterThanOrEqual(1);
    // The pool and the queue, read at the scrape.
    const engine = t.database.engine;
    expect(value(after, 'tourdesk_db_pool_connections', { engine, state: 'max' })).toBe(engine === 'pglite' ? 1 : 20);
    expect(after.some((s) => s.name === 'tourdesk_db_pool_waiting' && s.labels.engine === engine)).toBe(true);
  });

  it('times the waits for a connection of the pool', async () => {
    const seen = value(await scrape(), 'tourdesk_db_pool_wait_seconds_count', { pool: 'primary' });
    if (t.database.engine === 'pglite') {
      // One embedded connection and no pool: nothing to time.
      expect(seen).toBe(0);
      return;
    }
    // Every query and transaction above took a connection from the pool.
    expect(seen).toBeGreaterThan(10);
    // A pool of one, two queries at once: the second waits while the first sleeps on the connection.
    const small = await openAppDatabase({ url: t.url!, poolSize: 1 });
    const waits: { seconds: number; pool: string }[] = [];
    const stop = small.onConnectionWait((seconds, pool) => void waits.push({ seconds, pool }));
    try {
      await Promise.all([small.db.execute(sql`select pg_sleep(0.3)`), small.db.execute(sql`select 1`)]);
    } finally {
      stop();
      await small.close();
    }
    expect(waits).toHaveLength(2);
    expect(waits.every((w) => w.pool === 'primary')).toBe(true);
    expect(Math.max(...waits.map((w) => w.seconds))).toBeGreaterThanOrEqual(0.25);
  });

  it("shows the queue's depth and counts a failed job", async () => {
    // A job due in an hour waits in its queue.
    await t.app.jobs.send({ name: 'images-strip-metadata', options: {} }, { note: 'metrics test' }, { startAfter: 3600 });
    const samples = await scrape();
    expect(value(samples, 'tourdesk_jobs', { queue: 'images-strip-metadata', state: 'created' })).toBeGreaterThanOrEqual(1);
    // A job whose handler throws: an e-mail whose sealed text cannot be opened.
    const failuresBefore = value(samples, 'tourdesk_job_failures_total', { queue: 'email-send' });
    await t.app.jobs.send({ name: 'email-send', options: {} }, { to: 'x@example.com', subject: 'broken', sealed: 'not-a-sealed-value' }, { retryLimit: 0 });
    await until('the failure counted', async () => value(await scrape(), 'tourdesk_job_failures_total', { queue: 'email-send' }) > failuresBefore);
  });
});

describe('request logs', () => {
  it('carry the request id, the route pattern and the organisation, never a password', async () => {
    const res = await owner.get('/api/orders/');
    expect(res.statusCode).toBe(200);
    const id = res.headers['x-request-id'] as string;
    const mine = lines.filter((l) => l.includes(id)).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const me = (await owner.get('/api/users/me/')).json() as { base_account: { id: string } };
    for (const line of mine) expect(line).toMatchObject({ reqId: id, route: '/api/orders/' });
    // The line that closes the request names the organisation (known once the guard has run).
    const completed = mine.find((l) => l.msg === 'request completed')!;
    expect(completed.org).toBe(me.base_account.id);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });
});
