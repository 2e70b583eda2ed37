import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_LOGIN, sqlOn, topologyTools, urlOf } from '../../../scripts/topology';
import { DEMO } from '../src/seed/demo';
import { PARTNER_DEMO } from '../src/seed/demo-partners';

/**
 * `npm run cluster` (scripts/cluster.ts), for real: a PostgreSQL 15 primary of its own, a streaming
 * replica made from it with pg_basebackup, PgBouncer in transaction pooling mode with TWO server
 * connections in front of the primary, three API processes (the built dist/server.js, ten client
 * connections each) and HAProxy, through which every request here goes. The processes reach the
 * primary only through PgBouncer (DATABASE_URL), migrate directly (MIGRATION_DATABASE_URL) and read
 * lists from the replica (DATABASE_READ_URL). PostgreSQL server runs only (TEST_DATABASE_URL: the CI
 * step after `npm test`, which built), where PostgreSQL 15's tools, pgbouncer and haproxy are
 * installed and the API is built (`npm run build`).
 */
const apiDir = fileURLToPath(new URL('..', import.meta.url));
const tools = topologyTools();
const root = path.resolve(apiDir, '../..');
let cluster: ChildProcess | undefined;
let output = '';
let dir = '';
let ports = { primary: 0, replica: 0, pgbouncer: 0, http: 0, apis: [0, 0, 0] };
/** Where the test's requests go: HAProxy, which spreads them over the three processes. */
let a = 0;
let b = 0;

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several endpoints, read loosely
type Answer = { status: number; json: () => any; cookies: Record<string, string> };
function call(port: number, host: string, method: string, url: string, body?: unknown, cookie = '') {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method,
        headers: { host: `${host}:${port}`, origin: `http://${host}:${port}`, cookie, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          const cookies: Record<string, string> = {};
          for (const c of res.headers['set-cookie'] ?? []) {
            const [pair] = c.split(';');
            const [name, ...value] = pair!.split('=');
            cookies[name!] = value.join('=');
          }
          resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text), cookies });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function signIn(port: number, subdomain: string, email: string, password: string) {
  const login = await call(port, 'localhost', 'POST', '/api/jwt/create/', { email, password });
  expect(login.status).toBe(200);
  const code = new URL(login.json().redirect_url).searchParams.get('code');
  const handoff = await call(port, `${subdomain}.localhost`, 'POST', '/api/jwt/handoff/', { code });
  expect(handoff.status).toBe(200);
  return `access_token=${handoff.cookies.access_token}`;
}

const database = 'tourdesk';
/** The demo kayak offer's required question, answered. */
async function answers() {
  const { rows } = await sqlOn(ownerUrl(), `select id from booking_question where question = 'Can everyone in the group swim?'`);
  return { [rows[0].id as string]: 'yes' };
}
const ownerUrl = () => urlOf(ports.primary, 'postgres', database);

const built = existsSync(path.join(root, 'apps/api/dist/server.js'));

describe.runIf(Boolean(process.env.TEST_DATABASE_URL) && tools.postgres && tools.pgbouncer && tools.haproxy && built)('npm run cluster: HAProxy, three API processes, PgBouncer (transaction mode) and a read replica', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-topology-'));
    ports = { primary: await freePort(), replica: await freePort(), pgbouncer: await freePort(), http: await freePort(), apis: [await freePort(), await freePort(), await freePort()] };
    cluster = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
      cwd: root,
      env: {
        ...process.env,
        CLUSTER_DIR: dir,
        CLUSTER_SKIP_BUILD: '1',
        CLUSTER_PRIMARY_PORT: String(ports.primary),
        CLUSTER_REPLICA_PORT: String(ports.replica),
        CLUSTER_PGBOUNCER_PORT: String(ports.pgbouncer),
        CLUSTER_HTTP_PORT: String(ports.http),
        CLUSTER_API_PORTS: ports.apis.join(','),
        // Two server connections for three processes of ten client connections each.
        CLUSTER_POOL_SIZE: '2',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cluster.stdout!.on('data', (d) => (output += d));
    cluster.stderr!.on('data', (d) => (output += d));
    const deadline = Date.now() + 230_000;
    while (!output.includes('Tourdesk cluster is running')) {
      if (Date.now() > deadline || cluster.exitCode !== null) throw new Error(`the cluster did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // HAProxy takes a process in after two passed checks (a second apart).
    const ready = Date.now() + 20_000;
    while ((await call(ports.http, 'localhost', 'GET', '/api/health/').catch(() => ({ status: 0 }))).status !== 200) {
      if (Date.now() > ready) throw new Error(`HAProxy does not answer:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    a = ports.http;
    b = ports.http;
  }, 240_000);

  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      cluster.kill('SIGTERM');
      await new Promise((r) => cluster!.once('exit', r));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('signs in, reads each organisation under RLS, holds, checks out and runs a job on two server connections', async () => {
    const demo = await signIn(a, DEMO.subdomain, DEMO.email, DEMO.password);
    const agency = await signIn(b, PARTNER_DEMO.subdomain, PARTNER_DEMO.email, PARTNER_DEMO.password);

    // What each organisation sees alone.
    const teamOf = async (port: number, host: string, cookie: string) => {
      const res = await call(port, `${host}.localhost`, 'GET', '/api/users/?page_size=50', undefined, cookie);
      expect(res.status).toBe(200);
      return (res.json().results as { email: string }[]).map((u) => u.email).sort();
    };
    const demoTeam = await teamOf(a, DEMO.subdomain, demo);
    const agencyTeam = await teamOf(b, PARTNER_DEMO.subdomain, agency);
    expect(demoTeam).toContain(DEMO.email);
    expect(agencyTeam).toContain(PARTNER_DEMO.email);
    expect(demoTeam.filter((email) => agencyTeam.includes(email))).toEqual([]);

    // Many requests of both at once, through both processes, on two server connections: each
    // answer is its own organisation's, never the other's (no tenant setting outlives its transaction).
    const mixed = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const mine = i % 2 === 0;
        const port = i % 3 === 0 ? a : b;
        const [host, cookie] = mine ? [DEMO.subdomain, demo] : [PARTNER_DEMO.subdomain, agency];
        const [team, me] = await Promise.all([teamOf(port, host, cookie), call(port, `${host}.localhost`, 'GET', '/api/users/me/', undefined, cookie)]);
        return { mine, team, email: me.json().email as string };
      }),
    );
    for (const r of mixed) {
      expect(r.team).toEqual(r.mine ? demoTeam : agencyTeam);
      expect(r.email).toBe(r.mine ? DEMO.email : PARTNER_DEMO.email);
    }

    // One slot, holds through both processes at once: never more than the seats left; then a checkout.
    const kayak = (await call(a, 'demo.localhost', 'GET', '/api/experiences/?page_size=50', undefined, demo)).json().results.find((o: { title: string }) => /kayak/i.test(o.title));
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await call(a, 'demo.localhost', 'GET', `/api/bookings/check-availability/?experience=${kayak.id}&date=${day}`, undefined, demo)).json() as { id: string; remaining: number; prices: { pricing_category: string }[] }[];
    const slot = slots[0]!;
    const categories = (await call(a, 'demo.localhost', 'GET', '/api/pricing-categories/?page_size=50', undefined, demo)).json().results as { id: string; occupies_seat: boolean }[];
    const seated = new Set(categories.filter((c) => c.occupies_seat).map((c) => c.id));
    const category = slot.prices.find((p) => seated.has(p.pricing_category))!.pricing_category;
    const holds = await Promise.all(
      Array.from({ length: slot.remaining + 6 }, (_, i) => call(i % 2 ? a : b, 'demo.localhost', 'POST', '/api/cart/lines/', { slot: slot.id, quantities: { [category]: 1 } }, demo)),
    );
    expect(holds.filter((h) => h.status === 201)).toHaveLength(slot.remaining);
    expect(holds.filter((h) => h.status === 409)).toHaveLength(6);
    const order = await call(b, 'demo.localhost', 'POST', '/api/cart/checkout/', { answers: await answers(), customer: { email: 'pooled@example.com', first_name: 'Pat', last_name: 'Pool' } }, demo);
    expect(order.status, JSON.stringify(order.json())).toBe(201);

    // The horizon job both processes send at start: one job, run once.
    const deadline = Date.now() + 30_000;
    let jobs: { state: string }[] = [];
    while (Date.now() < deadline) {
      jobs = (await sqlOn(ownerUrl(), `select state from pgboss.job where name = 'slots-extend-horizon'`)).rows as { state: string }[];
      if (jobs.length > 0 && jobs.every((j) => j.state === 'completed')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(jobs).toEqual([{ state: 'completed' }]);

    // All of it went through PgBouncer's two server connections: the primary never saw more.
    const served = await sqlOn(ownerUrl(), `select count(*)::int as n from pg_stat_activity where usename = $1`, [APP_LOGIN]);
    expect(served.rows[0].n).toBeLessThanOrEqual(2);
  }, 180_000);

  it('reads the orders list from the replica (it lags while replay is paused) and decides sales on the primary', async () => {
    const demo = await signIn(a, DEMO.subdomain, DEMO.email, DEMO.password);
    const ordersListed = async () => (await call(a, 'demo.localhost', 'GET', '/api/orders/?page_size=5', undefined, demo)).json().count as number;
    // The replica has replayed everything the primary wrote so far.
    const caughtUp = async () => {
      const target = (await sqlOn(urlOf(ports.primary), 'select pg_current_wal_lsn()::text as lsn')).rows[0].lsn as string;
      const deadline = Date.now() + 20_000;
      while (!(await sqlOn(urlOf(ports.replica), 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [target])).rows[0].done) {
        if (Date.now() > deadline) throw new Error('the replica did not catch up');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await caughtUp();
    const before = await ordersListed();

    await sqlOn(urlOf(ports.replica), 'select pg_wal_replay_pause()');
    let kayakId = '';
    try {
      const kayak = (await call(a, 'demo.localhost', 'GET', '/api/experiences/?page_size=50', undefined, demo)).json().results.find((o: { title: string }) => /kayak/i.test(o.title));
      kayakId = kayak.id;
      const day = new Date(Date.now() + 11 * 86_400_000).toISOString().slice(0, 10);
      const availability = async () => (await call(b, 'demo.localhost', 'GET', `/api/bookings/check-availability/?experience=${kayak.id}&date=${day}`, undefined, demo)).json() as { id: string; remaining: number; prices: { pricing_category: string }[] }[];
      const slot = (await availability())[0]!;
      // A category that takes a seat (the demo's infants sit on a lap: a hold of one takes none, and the count would not move).
      const categories = (await call(a, 'demo.localhost', 'GET', '/api/pricing-categories/?page_size=50', undefined, demo)).json().results as { id: string; occupies_seat: boolean }[];
      const seated = new Set(categories.filter((c) => c.occupies_seat).map((c) => c.id));
      const hold = await call(a, 'demo.localhost', 'POST', '/api/cart/lines/', { slot: slot.id, quantities: { [slot.prices.find((p) => seated.has(p.pricing_category))!.pricing_category]: 1 } }, demo);
      expect(hold.status).toBe(201);
      const order = await call(b, 'demo.localhost', 'POST', '/api/cart/checkout/', { answers: await answers(), customer: { email: 'lag@example.com', first_name: 'Lee', last_name: 'Lag' } }, demo);
      expect(order.status, JSON.stringify(order.json())).toBe(201);
      // The sale's seat counts are the primary's: the seat just sold is gone at once.
      expect((await availability()).find((s) => s.id === slot.id)!.remaining).toBeLessThan(slot.remaining);
      // The web store's catalogue is the replica's: a renamed offer keeps its old name there until
      // replay resumes, while the store's seats left for the day are the primary's.
      expect((await call(a, 'demo.localhost', 'PATCH', `/api/experiences/${kayak.id}/`, { title: 'Kayak (renamed on the primary)' }, demo)).status).toBe(200);
      const storeOffer = async () => (await call(b, 'demo.localhost', 'GET', `/api/web-stores/kayak/experiences/${kayak.id}/`)).json().title as string;
      expect(await storeOffer()).toBe(kayak.title);
      const left = (await availability()).find((s) => s.id === slot.id)!.remaining;
      const storeDay = (await call(b, 'demo.localhost', 'GET', `/api/web-stores/kayak/experiences/${kayak.id}/day/?date=${day}`)).json() as { slots: { id: string; seats_left: number }[] };
      expect(storeDay.slots.find((s) => s.id === slot.id)?.seats_left).toBe(left);
      // The order is on the primary (its page reads there); the list is the replica's, which has
      // not replayed it yet.
      expect((await call(a, 'demo.localhost', 'GET', `/api/orders/${order.json().id}/`, undefined, demo)).status).toBe(200);
      expect(await ordersListed()).toBe(before);
    } finally {
      await sqlOn(urlOf(ports.replica), 'select pg_wal_replay_resume()');
    }
    await caughtUp();
    expect(await ordersListed()).toBe(before + 1);
    expect((await call(b, 'demo.localhost', 'GET', `/api/web-stores/kayak/experiences/${kayakId}/`)).json().title).toBe('Kayak (renamed on the primary)');
  }, 120_000);

  it('stops everything on SIGTERM: the API processes drained, then PgBouncer, the replica and the primary', async () => {
    const exited = new Promise<number | null>((r) => cluster!.once('exit', (code) => r(code)));
    cluster!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('cluster: stopped');
    const listening = async (port: number) =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    for (const port of [ports.http, ...ports.apis, ports.pgbouncer, ports.replica, ports.primary]) expect(await listening(port), `port ${port}`).toBe(false);
  }, 60_000);
});
