import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { JOB_SCHEMA } from '../src/lib/jobs';
import { inTenant } from '../src/lib/tenancy';
import { addDays, todayIn } from '../src/lib/local-time';
import { addressKind, AddressRefused, guardedLookup, refusal } from '../src/modules/webhooks/address';
import { emitEvent } from '../src/modules/webhooks/events';
import { sendSigned } from '../src/modules/webhooks/send';
import { purgeOldDeliveries, sweepOrphans } from '../src/modules/webhooks/service';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Outgoing webhooks: an Owner's endpoint gets each event it subscribes to, signed per Standard
 * Webhooks, after the change commits (never when it rolls back), retried with backoff, in order per
 * order; only public addresses are reached unless WEBHOOKS_ALLOW_PRIVATE allows the local ones (as
 * here, for the receiver this test starts, exactly as an operator sets it).
 */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let account: string;
let receiver: Server;
let base: string;
const received: Received[] = [];
/** Per path: how many of its first requests answer 500. */
const failFirst = new Map<string, number>();
let exp: { id: string; category: string };
let slot: string;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wait(150);
  }
}
const at = (path: string) => received.filter((r) => r.path === path);
const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;

async function addEndpoint(browser: Browser, path: string, event_types: string[] = ['order.created', 'order.paid', 'booking.created']) {
  const res = await browser.post('/api/webhooks/endpoints/', { url: `${base}${path}`, description: path, event_types });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}
const deliveries = async (endpoint: string) => (await owner.get(`/api/webhooks/endpoints/${endpoint}/deliveries/`)).json().results as { id: string; status: string; attempts: number; http_status: number | null; event_type: string; response: string | null }[];
async function newOrder(n: number) {
  const res = await owner.post('/api/orders/', { customer: { email: `guest${n}@example.com`, first_name: `Guest${n}`, last_name: 'Tester' }, lines: [{ slot, quantities: { [exp.category]: 1 } }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; total: number; currency: string };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (path === '/redirect') {
        res.writeHead(302, { location: `${base}/ok` }).end();
        return;
      }
      const left = failFirst.get(path) ?? 0;
      if (left > 0) {
        failFirst.set(path, left - 1);
        res.writeHead(500).end('receiver down');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_RETRY_LIMIT: '3' } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'hooks' });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere' });
  account = (await owner.get('/api/users/me/')).json().base_account.id;
  const zone = (await owner.get('/api/users/me/')).json().base_account.time_zone as string;
  exp = await sellableExperience(owner, 'Harbour tour');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(zone), 2)}`)).json()[0].id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
  await new Promise((r) => receiver?.close(r));
});

describe('webhook endpoints', () => {
  it('shows the secret once, signs each delivery per Standard Webhooks, and lists it as succeeded', async () => {
    const ep = await addEndpoint(owner, '/signed');
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const shown = await owner.get(`/api/webhooks/endpoints/${ep.id}/`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(ep.secret);
    expect(JSON.stringify((await owner.get('/api/webhooks/endpoints/')).json())).not.toContain(ep.secret);

    const order = await newOrder(1);
    const msgs = await until('order.created and booking.created', () => (at('/signed').length >= 2 ? at('/signed') : null));
    const verifier = new Webhook(ep.secret);
    const payloads = msgs.map((m) => verifier.verify(m.body, m.headers as Record<string, string>) as { type: string; timestamp: string; data: { id: string; order?: string } });
    expect(payloads.map((p) => p.type).sort()).toEqual(['booking.created', 'order.created']);
    const created = payloads.find((p) => p.type === 'order.created')!;
    // The API's own shape: the order as GET /api/orders/{id}/ answers it.
    expect(created.data).toMatchObject({ id: order.id, total: order.total, currency: order.currency });
    expect(payloads.find((p) => p.type === 'booking.created')!.data.order).toBe(order.id);
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(msgs[0]!.body, msgs[0]!.headers as Record<string, string>)).toThrow();
    const listed = await until('both deliveries succeeded', async () => {
      const rows = await deliveries(ep.id);
      return rows.length === 2 && rows.every((d) => d.status === 'succeeded') ? rows : null;
    });
    expect(listed[0]).toMatchObject({ http_status: 200, attempts: 1, response: 'thanks' });

    // Rotated: the new secret signs from now on, and is answered once.
    const rotated = await owner.post(`/api/webhooks/endpoints/${ep.id}/rotate-secret/`, {});
    expect(rotated.statusCode, rotated.body).toBe(200);
    const secret = rotated.json().secret as string;
    expect(secret).not.toBe(ep.secret);
    await newOrder(2);
    const next = await until('the next order', () => at('/signed').find((m) => (JSON.parse(m.body) as { data: { customer?: { email?: string } } }).data.customer?.email === 'guest2@example.com'));
    expect(() => new Webhook(secret).verify(next.body, next.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(ep.secret).verify(next.body, next.headers as Record<string, string>)).toThrow();
    // Disabled: nothing more is sent to it.
    expect((await owner.patch(`/api/webhooks/endpoints/${ep.id}/`, { enabled: false })).json().enabled).toBe(false);
    const before = (await deliveries(ep.id)).length;
    await newOrder(3);
    expect((await deliveries(ep.id)).length).toBe(before);
  }, 60_000);

  it('retries a delivery the receiver refuses, with growing waits, until it succeeds; gives up after its retries and sends again on request', async () => {
    failFirst.set('/flaky', 2);
    const ep = await addEndpoint(owner, '/flaky', ['order.created']);
    await newOrder(4);
    const [d] = await until('the delivery succeeded', async () => {
      const rows = await deliveries(ep.id);
      return rows[0]?.status === 'succeeded' ? rows : null;
    });
    expect(d).toMatchObject({ attempts: 3, http_status: 200 });
    const times = at('/flaky').map((r) => r.at);
    expect(times).toHaveLength(3);
    // 1 s, then 2 s (each plus up to a tenth, plus the worker's polling).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(2000);

    failFirst.set('/down', 100);
    const down = await addEndpoint(owner, '/down', ['order.created']);
    await newOrder(5);
    const [failed] = await until('the delivery failed', async () => {
      const rows = await deliveries(down.id);
      return rows[0]?.status === 'failed' ? rows : null;
    }, 45_000);
    // The first attempt and its three retries.
    expect(failed).toMatchObject({ attempts: 4, http_status: 500, response: 'receiver down' });
    failFirst.set('/down', 0);
    const resent = await owner.post(`/api/webhooks/endpoints/${down.id}/deliveries/${failed!.id}/resend/`, {});
    expect(resent.statusCode, resent.body).toBe(201);
    await until('the resent delivery succeeded', async () => (await deliveries(down.id)).find((r) => r.id === resent.json().id && r.status === 'succeeded'));
    const sent = at('/down');
    // The same message (id) every time.
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await owner.delete(`/api/webhooks/endpoints/${ep.id}/`);
    await owner.delete(`/api/webhooks/endpoints/${down.id}/`);
  }, 90_000);

  it('delivers an order’s events in the order they happened, even when an earlier one is retried', async () => {
    failFirst.set('/ordered', 1);
    await addEndpoint(owner, '/ordered', ['order.created', 'order.paid']);
    const order = await newOrder(6);
    const paid = await owner.post(`/api/orders/${order.id}/payments/`, { amount: order.total, currency: order.currency, method: 'cash', reference: 'till' });
    expect(paid.statusCode, paid.body).toBe(201);
    await until('order.paid', () => at('/ordered').some((r) => typeOf(r) === 'order.paid'));
    // The first try of order.created failed; order.paid waited for its retry.
    expect(at('/ordered').map(typeOf)).toEqual(['order.created', 'order.created', 'order.paid']);
  }, 60_000);

  it('sends nothing for a change that rolls back', async () => {
    await addEndpoint(owner, '/rollback', ['order.cancelled']);
    const ctx = (tx: Db) => ({ tx, accountId: account, currency: 'CHF', jobs: t.app.jobs });
    await expect(
      inTenant(t.database.db, account, async (tx) => {
        await emitEvent(ctx(tx), 'order.cancelled', null, async () => ({ marker: 'rolled back' }));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await inTenant(t.database.db, account, (tx) => emitEvent(ctx(tx), 'order.cancelled', null, async () => ({ marker: 'committed' })));
    await until('the committed event', () => at('/rollback').length > 0);
    await wait(2500);
    expect(at('/rollback').map((r) => (JSON.parse(r.body) as { data: { marker: string } }).data.marker)).toEqual(['committed']);
    const rows = (await t.database.db.execute(sql`select count(*)::int as n from webhook_event where payload->'data'->>'marker' = 'rolled back'`)) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(0);
    const jobs = (await t.database.db.execute(sql`select count(*)::int as n from ${sql.raw(JOB_SCHEMA)}.job where name = 'webhook-delivery' and data->>'account' = ${account}`)) as unknown as { rows: { n: number }[] };
    expect(jobs.rows[0]!.n).toBeGreaterThan(0);
  }, 30_000);

  it('sends a delivery written without the queue at hand (a partner’s transaction) by the sweep', async () => {
    await addEndpoint(owner, '/swept', ['order.refunded']);
    await inTenant(t.database.db, account, (tx) => emitEvent({ tx, accountId: account, currency: 'CHF' }, 'order.refunded', null, async () => ({ marker: 'swept' })));
    // The sweep (pg-boss's clock sends it each minute) takes deliveries a few seconds old, once.
    await wait(5500);
    expect(await sweepOrphans(t.database.db, t.app.jobs)).toBe(1);
    expect(await sweepOrphans(t.database.db, t.app.jobs)).toBe(0);
    await until('the swept delivery', () => at('/swept').length > 0);
  }, 40_000);

  /** A pending delivery without a job (written by hand, so no worker takes it). */
  const emitEventAndReturn = async (tx: Db) => {
    const [endpoint] = ((await tx.execute(sql`select id from webhook_endpoint where account_id = ${account}::uuid and url like '%/purged'`)) as unknown as { rows: { id: string }[] }).rows;
    const [event] = ((await tx.execute(sql`insert into webhook_event (account_id, type, payload) values (${account}::uuid, 'order.created', '{}'::jsonb) returning id`)) as unknown as { rows: { id: string }[] }).rows;
    const rows = ((await tx.execute(sql`insert into webhook_delivery (account_id, endpoint_id, event_id, job_id) values (${account}::uuid, ${endpoint!.id}::uuid, ${event!.id}::uuid, gen_random_uuid()) returning id`)) as unknown as { rows: { id: string }[] }).rows;
    return rows.map((r) => r.id);
  };

  it('forgets deliveries done for 30 days, never a pending one', async () => {
    const ep = await addEndpoint(owner, '/purged', ['order.created']);
    await newOrder(8);
    await until('the delivery succeeded', async () => (await deliveries(ep.id))[0]?.status === 'succeeded');
    await t.database.db.execute(sql`update webhook_delivery set created_at = now() - interval '31 days' where endpoint_id = ${ep.id}::uuid`);
    await t.database.db.execute(sql`update webhook_event set created_at = now() - interval '31 days' where id in (select event_id from webhook_delivery where endpoint_id = ${ep.id}::uuid)`);
    // A pending delivery as old stays (it is still being tried).
    const [pending] = await inTenant(t.database.db, account, (tx) => emitEventAndReturn(tx));
    await t.database.db.execute(sql`update webhook_delivery set created_at = now() - interval '31 days' where id = ${pending!}::uuid`);
    expect(await purgeOldDeliveries(t.database.db)).toBe(1);
    expect((await deliveries(ep.id)).map((d) => d.status)).toEqual(['pending']);
    const left = (await t.database.db.execute(sql`select status from webhook_delivery where id = ${pending!}::uuid`)) as unknown as { rows: { status: string }[] };
    expect(left.rows).toEqual([{ status: 'pending' }]);
  }, 30_000);

  it('answers 404 for another organisation’s endpoint and its deliveries, and refuses anyone but an Owner', async () => {
    const ep = await addEndpoint(owner, '/private', ['order.created']);
    await newOrder(7);
    const [d] = await until('a delivery', async () => ((await deliveries(ep.id)).length ? deliveries(ep.id) : null));
    expect((await other.get(`/api/webhooks/endpoints/${ep.id}/`)).statusCode).toBe(404);
    expect((await other.patch(`/api/webhooks/endpoints/${ep.id}/`, { enabled: false })).statusCode).toBe(404);
    expect((await other.delete(`/api/webhooks/endpoints/${ep.id}/`)).statusCode).toBe(404);
    expect((await other.post(`/api/webhooks/endpoints/${ep.id}/rotate-secret/`, {})).statusCode).toBe(404);
    expect((await other.get(`/api/webhooks/endpoints/${ep.id}/deliveries/`)).statusCode).toBe(404);
    expect((await other.post(`/api/webhooks/endpoints/${ep.id}/deliveries/${d!.id}/resend/`, {})).statusCode).toBe(404);
    expect((await other.get('/api/webhooks/endpoints/')).json().count).toBe(0);
    expect((await owner.get(`/api/webhooks/endpoints/${ep.id}/`)).statusCode).toBe(200);
    // A team member who may manage the account but is no Owner: 403 (the guard lets them by, the route does not).
    const role = (await owner.post('/api/roles/', { name: 'Account managers', permission_sets: ['manage_account'] })).json().id as string;
    const { member } = await inviteMember(t.app, sink, owner, 'hooks', 'manager@hooks.test', role);
    expect((await member.get('/api/webhooks/endpoints/')).statusCode).toBe(403);
    expect((await member.get(`/api/webhooks/endpoints/${ep.id}/`)).statusCode).toBe(403);
    expect((await member.post('/api/webhooks/endpoints/', { url: 'https://hooks.example.com/x', event_types: ['order.created'] })).statusCode).toBe(403);
  }, 30_000);

  it('refuses an address that is not http(s) or not public at creation', async () => {
    const strict = await createTestApp({ env: { SMTP_URL: sink.url } });
    try {
      const boss = await createOrganisation(strict.app, sink, { subdomain: 'strict' });
      for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
        expect((await boss.post('/api/webhooks/endpoints/', { url, event_types: ['order.created'] })).statusCode, url).toBe(400);
      }
      for (const url of ['http://127.0.0.1/', 'http://localhost:8080/', 'http://10.1.2.3/', 'http://172.16.0.1/', 'http://192.168.1.1/', 'http://100.64.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://169.254.10.10/', 'http://0.0.0.0/', 'http://224.0.0.1/', 'http://[::1]/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://[ff02::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://2130706433/']) {
        const res = await boss.post('/api/webhooks/endpoints/', { url, event_types: ['order.created'] });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().errors[0]).toMatchObject({ code: 'invalid', attr: 'url' });
      }
      expect((await boss.post('/api/webhooks/endpoints/', { url: 'https://hooks.example.com/tourdesk', event_types: ['order.created'] })).statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  }, 60_000);
});

describe('the address guard', () => {
  it('classifies each kind of address that is not public', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.10', 'private'],
      ['fd12:3456::1', 'private'],
      ['fe80::1', 'link_local'],
      ['169.254.1.1', 'link_local'],
      ['169.254.169.254', 'metadata'],
      ['100.64.0.1', 'cgnat'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.251', 'multicast'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'metadata'],
      ['::ffff:10.0.0.1', 'private'],
      ['64:ff9b::a9fe:a9fe', 'metadata'],
      ['93.184.216.34', null],
      ['2606:4700::1111', null],
      ['172.32.0.1', null],
    ];
    for (const [address, kind] of cases) expect(addressKind(address), address).toBe(kind);
    // The setting allows loopback and private addresses, never link-local or the metadata service.
    expect(refusal('127.0.0.1', true)).toBeNull();
    expect(refusal('192.168.1.1', true)).toBeNull();
    expect(refusal('169.254.169.254', true)).toMatch(/metadata/);
    expect(refusal('fe80::1', true)).toMatch(/link-local/);
    expect(refusal('127.0.0.1', false)).toMatch(/loopback/);
  });

  it('checks the address a name resolves to, on the connection itself, and never follows a redirect', async () => {
    // A name (not an address) that resolves to loopback: refused by the socket's lookup.
    const lookedUp = await new Promise<Error | null>((resolve) => guardedLookup(false)('localhost', {}, (err) => resolve(err)));
    expect(lookedUp).toBeInstanceOf(AddressRefused);
    const before = received.length;
    const port = (receiver.address() as AddressInfo).port;
    const refused = await sendSigned(`http://localhost:${port}/guarded`, `whsec_${Buffer.alloc(32, 1).toString('base64')}`, { id: 'msg_1', body: '{}' }, { allowPrivate: false });
    expect(refused).toMatchObject({ ok: false, http_status: null });
    expect(refused.response).toMatch(/^Refused: .*loopback/);
    expect(received.length).toBe(before);
    // With the setting, the same name is reached; a 3xx answer is a failure and is not followed.
    const redirected = await sendSigned(`http://localhost:${port}/redirect`, `whsec_${Buffer.alloc(32, 1).toString('base64')}`, { id: 'msg_2', body: '{}' }, { allowPrivate: true });
    expect(redirected).toMatchObject({ ok: false, http_status: 302 });
    expect(redirected.response).toMatch(/Redirects are not followed/);
    expect(received.slice(before).map((r) => r.path)).toEqual(['/redirect']);
  });
});
