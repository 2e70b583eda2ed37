import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO } from '../src/seed/demo';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * Two API processes on one PostgreSQL server behave as one: a session made by one is good on the
 * other, a sign-in throttle counts attempts on both, a slot's seats are held across both without
 * overselling, and a job both send at start runs once.
 */
const apiDir = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
let testDb: TestDatabase | undefined;

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  await testDb?.drop();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

async function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: { ...process.env, LOG_LEVEL: 'warn', WEB_DIST_DIR: '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 60_000;
  while (!output.includes('Tourdesk is running')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Number(env.PORT);
}

/** A request to one process with the Host of the organisation (or the bare host). */
function call(port: number, host: string, method: string, url: string, body?: unknown, cookie = '') {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several endpoints, read loosely
  return new Promise<{ status: number; json: () => any; cookies: Record<string, string> }>((resolve, reject) => {
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

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('two API processes on one PostgreSQL server', () => {
  it('share sessions, throttles, holds and jobs', async () => {
    testDb = await createTestDatabase();
    const common = { DATABASE_URL: testDb.url!, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tourdesk-cluster-')), LOGIN_LIMIT_PER_EMAIL: '3' };
    const a = await startProcess({ ...common, PORT: String(await freePort()), SEED_DEMO: 'true' });
    const b = await startProcess({ ...common, PORT: String(await freePort()), SEED_DEMO: 'false' });

    // A session made on one is good on the other.
    const login = await call(a, 'localhost', 'POST', '/api/jwt/create/', { email: DEMO.email, password: DEMO.password });
    expect(login.status).toBe(200);
    const code = new URL(login.json().redirect_url).searchParams.get('code');
    const handoff = await call(a, 'demo.localhost', 'POST', '/api/jwt/handoff/', { code });
    expect(handoff.status).toBe(200);
    const cookie = `access_token=${handoff.cookies.access_token}`;
    expect((await call(b, 'demo.localhost', 'GET', '/api/users/me/', undefined, cookie)).json().email).toBe(DEMO.email);

    // One throttle: three wrong passwords spread over both, and the fourth attempt is refused on either.
    const wrong = (port: number) => call(port, 'localhost', 'POST', '/api/jwt/create/', { email: 'guide@demo.tourdesk.test', password: 'not the password' });
    expect([(await wrong(a)).status, (await wrong(b)).status, (await wrong(a)).status]).toEqual([401, 401, 401]);
    expect((await wrong(b)).status).toBe(429);

    // One slot, holds through both processes at once: never more than the seats left.
    const offers = (await call(a, 'demo.localhost', 'GET', '/api/experiences/?page_size=50', undefined, cookie)).json().results as { id: string; title: string }[];
    const kayak = offers.find((o) => /kayak/i.test(o.title))!;
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await call(a, 'demo.localhost', 'GET', `/api/bookings/check-availability/?experience=${kayak.id}&date=${day}`, undefined, cookie)).json() as { id: string; remaining: number; prices: { pricing_category: string }[] }[];
    const slot = slots[0]!;
    // A category that takes a seat (the demo's infants sit on a lap).
    const categories = (await call(a, 'demo.localhost', 'GET', '/api/pricing-categories/?page_size=50', undefined, cookie)).json().results as { id: string; occupies_seat: boolean }[];
    const seated = new Set(categories.filter((c) => c.occupies_seat).map((c) => c.id));
    const category = slot.prices.find((p) => seated.has(p.pricing_category))!.pricing_category;
    const holds = await Promise.all(
      Array.from({ length: slot.remaining + 8 }, (_, i) => call(i % 2 ? a : b, 'demo.localhost', 'POST', '/api/cart/lines/', { slot: slot.id, quantities: { [category]: 1 } }, cookie)),
    );
    expect(holds.filter((h) => h.status === 201)).toHaveLength(slot.remaining);
    expect(holds.filter((h) => h.status === 409)).toHaveLength(8);
    const held = ((await testDb.database.db.execute(sql`select capacity - booked - held as left from slot where id = ${slot.id}::uuid`)) as unknown as { rows: { left: number }[] }).rows[0]!.left;
    expect(held).toBe(0);

    // The horizon job both processes send at start: one job, run once.
    const deadline = Date.now() + 20_000;
    let jobs: { state: string }[] = [];
    while (Date.now() < deadline) {
      jobs = ((await testDb.database.db.execute(sql`select state from pgboss.job where name = 'slots-extend-horizon'`)) as unknown as { rows: { state: string }[] }).rows;
      if (jobs.length > 0 && jobs.every((j) => j.state === 'completed')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(jobs).toEqual([{ state: 'completed' }]);
  }, 120_000);
});
