/**
 * npm run bench:orders (and the second half of npm run bench) — the orders list at scale, on the
 * PostgreSQL server (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 * It prints; it asserts nothing.
 *
 * Two fresh databases, migrated as the app does and seeded with set-based SQL:
 *   small — 10 organisations × 1,000 orders (10,000 orders)
 *   large — 1,000 organisations × 1,000 orders (1,000,000 orders)
 * Every organisation has an owner, 200 customers and 1,000 orders spread over the last 90 days,
 * inserted in creation order across organisations (as they would arrive), so one organisation's
 * rows are interleaved with everyone else's. The measured organisation's rows are identical in
 * both databases (every value derives from md5 of the organisation and order number), so the
 * only difference between the two runs is the rest of the table.
 *
 * Both APIs run side by side, each in a child process (scripts/bench-server.ts); this process
 * signs in to each as the measured organisation's owner and sends, over HTTP on one keep-alive
 * connection per server, BENCH_REQUESTS (default 300) sequential requests per case and database
 * after BENCH_WARMUP (default 30), small and large taking turns so that the machine's other load
 * falls on both alike. The cases: the filtered list (payment_status=Fully paid, date_range=30 days)
 * and the default list, each first and last page. It prints p50 and p95 per case, the ratio
 * large/small p95, and whether p95 is under 50 ms; then a short concurrent run (autocannon,
 * BENCH_CONNECTIONS clients for BENCH_SECONDS, defaults 4 and 5) on the filtered first page.
 * BENCH_KEEP keeps the databases.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openAppDatabase as openDatabase } from '../apps/api/src/database';
import { hashPassword } from '../apps/api/src/modules/auth/crypto';
import { PERMISSION_SETS } from '../packages/contracts/src';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ORDERS_PER_ORG = 1_000;
const CUSTOMERS_PER_ORG = 200;
/** The organisation measured, in both databases (its number, 1…10). */
const MEASURED = 7;
const PASSWORD = 'bench-password';
const TARGET_MS = 50;
const TARGET_RATIO = 1.5;
const runId = randomBytes(3).toString('hex');

const CASES = [
  { name: 'filtered, first page', query: 'payment_status=Fully%20paid&date_range=30%20days&page_size=25', last: false },
  { name: 'filtered, last page', query: 'payment_status=Fully%20paid&date_range=30%20days&page_size=25', last: true },
  { name: 'default, first page', query: '', last: false },
  { name: 'default, last page', query: '', last: true },
] as const;

interface Side {
  label: 'small' | 'large';
  orgs: number;
  dbName: string;
  url: string;
  address: string;
  headers: Record<string, string>;
  /** Per case: the list's row count, the page requested, its path and the latencies measured. */
  targets: { count: number; page: number; path: string; times: number[] }[];
  concurrent?: autocannon.Result;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const ms = (n: number) => n.toFixed(1);

/** Starts scripts/bench-server.ts in `app` mode in a child process; resolves with its address. */
function serve(url: string, dataDir: string) {
  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), ['app'], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_URL: url, BENCH_DATA_DIR: dataDir } });
  return new Promise<{ child: ChildProcess; address: string }>((resolve, reject) => {
    child.once('message', (m) => resolve({ child, address: (m as { address: string }).address }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** One keep-alive connection: sequential requests measure latency, not queueing. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(address: string, method: 'GET' | 'POST', pathAndQuery: string, headers: Record<string, string>, body?: string) {
  const url = new URL(pathAndQuery, address);
  return new Promise<{ status: number; body: string; setCookie: string[]; ms: number }>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), setCookie: res.headers['set-cookie'] ?? [], ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** A version-4-shaped uuid from md5 of a SQL expression: the same name gives the same id in every database. */
const uuid = (name: string) => `overlay(overlay(md5(${name}) placing '4' from 13) placing '8' from 17)::uuid`;

/**
 * Seeds `orgs` organisations in one database with set-based SQL. Ids are md5 of a name, so the
 * orders can refer to their account, customer and seller without joins; every per-order value
 * derives from md5('order:a:n'), so organisation a's orders are the same in every database.
 */
async function seed(client: pg.Client, orgs: number, base: string, passwordHash: string) {
  // Every reference is right by construction (checked below), so the foreign-key triggers are
  // skipped while seeding (a superuser's replica mode); the indexes are kept and grow by inserts,
  // as a live table's do.
  await client.query('set synchronous_commit = off');
  await client.query('set session_replication_role = replica');
  await client.query(
    `insert into base_account (id, name, subdomain, kind, subscription_tier_id, time_zone)
     select ${uuid("'account:' || a")}, 'Bench Org ' || a, 'org' || a, 'supplier', 'supplier-standard', 'Europe/Zurich'
     from generate_series(1, $1::int) a`,
    [orgs],
  );
  await client.query(
    `insert into role (id, account_id, name, is_owner, permission_set_ids)
     select ${uuid("'role:' || a")}, ${uuid("'account:' || a")}, 'Owner', true, $2::text[]
     from generate_series(1, $1::int) a`,
    [orgs, PERMISSION_SETS.map((s) => s.id)],
  );
  await client.query(
    `insert into users (id, account_id, email, first_name, last_name, password_hash, is_active, role_id, activated_at)
     select ${uuid("'user:' || a")}, ${uuid("'account:' || a")}, 'owner@org' || a || '.bench.test', 'Owner', 'Org ' || a, $2, true, ${uuid("'role:' || a")}, now()
     from generate_series(1, $1::int) a`,
    [orgs, passwordHash],
  );
  await client.query(
    `insert into customer (id, account_id, email, first_name, last_name)
     select ${uuid("'customer:' || a || ':' || c")}, ${uuid("'account:' || a")}, 'customer' || c || '@example.test', 'First' || c, 'Last' || c
     from generate_series(1, $1::int) a cross join generate_series(1, $2::int) c`,
    [orgs, CUSTOMERS_PER_ORG],
  );
  // Per order: created within the last 90 days; 8% cancelled (total 0, as cancelling all lines
  // leaves it); of the confirmed, 55% fully paid, 15% partially, 25% not paid, 5% refunded; of
  // the cancelled, 60% refunded. paid, refunded and payment_status agree as recomputeOrder derives them.
  await client.query(
    `insert into orders (account_id, reference, status, payment_status, customer_id, total, sold_total, tax_total, paid, refunded, currency, created_by, created_at, updated_at)
     select ${uuid("'account:' || a")}, 'TD-' || lpad(n::text, 8, '0'), s.status, s.payment_status,
            ${uuid("'customer:' || a || ':' || (1 + r.k_customer)")},
            m.total, m.sold, round(m.total * 810.0 / 10810)::int, m.paid, m.refunded, 'EUR',
            ${uuid("'user:' || a")}, t.created_at, t.created_at
     from generate_series(1, $2::int) n
     cross join generate_series(1, $1::int) a
     cross join lateral (select md5('order:' || a || ':' || n) as h) h
     cross join lateral (
       select ('x' || substr(h.h, 1, 7))::bit(28)::int / 268435456.0 as u_time,
              ('x' || substr(h.h, 8, 7))::bit(28)::int % 100 as p_status,
              ('x' || substr(h.h, 15, 7))::bit(28)::int % 100 as p_pay,
              ('x' || substr(h.h, 22, 7))::bit(28)::int % $3::int as k_customer,
              2000 + (('x' || substr(h.h, 29, 4))::bit(16)::int % 480) * 100 as gross
     ) r
     cross join lateral (select $4::timestamptz - r.u_time * interval '90 days' as created_at) t
     cross join lateral (
       select case when r.p_status < 8 then 'Canceled' else 'Confirmed' end as status,
              case when r.p_status < 8 then (case when r.p_pay < 60 then 'Refunded' else 'Not paid' end)
                   when r.p_pay < 55 then 'Fully paid' when r.p_pay < 70 then 'Partially paid' when r.p_pay < 95 then 'Not paid' else 'Refunded' end as payment_status
     ) s
     cross join lateral (
       select case when s.status = 'Canceled' then 0 else r.gross end as total,
              r.gross as sold,
              case s.payment_status when 'Fully paid' then r.gross when 'Partially paid' then r.gross * (20 + r.p_pay % 60) / 100 else 0 end as paid,
              case when s.payment_status = 'Refunded' then r.gross else 0 end as refunded
     ) m
     order by t.created_at`,
    [orgs, ORDERS_PER_ORG, CUSTOMERS_PER_ORG, base],
  );
  await client.query('set session_replication_role = origin');
  const { rows } = await client.query<{ dangling: number }>(
    `select count(*)::int as dangling from orders o
     where not exists (select 1 from customer c where c.id = o.customer_id and c.account_id = o.account_id)
        or not exists (select 1 from users u where u.id = o.created_by and u.account_id = o.account_id)`,
  );
  if (rows[0]!.dangling !== 0) throw new Error(`seeding left ${rows[0]!.dangling} orders with a dangling reference`);
  // A steady state: statistics, and the visibility map an autovacuum would have set.
  await client.query('vacuum (analyze) base_account, role, users, customer, orders, booking');
}

/** Creates, migrates (as the app does) and seeds one database; prints how long seeding took. */
async function prepare(admin: pg.Client, side: Side, base: string, passwordHash: string) {
  await admin.query(`create database ${side.dbName}`);
  const database = await openDatabase({ url: side.url, poolSize: 2 });
  await database.migrate();
  await database.close();
  const client = new pg.Client({ connectionString: side.url });
  await client.connect();
  try {
    const started = performance.now();
    await seed(client, side.orgs, base, passwordHash);
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await client.query<{ n: string }>('select count(*) as n from orders');
    console.log(`  ${side.label.padEnd(6)} ${fmt(side.orgs)} organisations × ${fmt(ORDERS_PER_ORG)} orders = ${fmt(Number(rows[0]!.n))} orders, seeded (with vacuum analyze) in ${seconds.toFixed(1)} s`);
  } finally {
    await client.end();
  }
}

async function get(side: Side, pathAndQuery: string) {
  const res = await request(side.address, 'GET', pathAndQuery, side.headers);
  if (res.status !== 200) throw new Error(`${side.label}: GET ${pathAndQuery}: ${res.status} ${res.body}`);
  return res;
}

async function main() {
  const started = performance.now();
  const loadAtStart = loadavg()[0]!;
  console.log(`\nTourdesk orders list benchmark — PostgreSQL server; one organisation's list over HTTP, ${REQUESTS} sequential requests per case and database after ${WARMUP} warm-up\n`);
  const passwordHash = await hashPassword(PASSWORD);
  // One instant for both databases, so the measured organisation's rows are the same in each.
  const base = new Date().toISOString();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tourdesk-bench-orders-'));
  const sides: Side[] = (
    [
      ['small', 10],
      ['large', 1_000],
    ] as const
  ).map(([label, orgs]) => {
    const dbName = `tourdesk_bench_orders_${label}_${runId}`;
    const url = new URL(SERVER);
    url.pathname = `/${dbName}`;
    return { label, orgs, dbName, url: url.toString(), address: '', headers: {}, targets: [] };
  });
  const [small, large] = sides as [Side, Side];

  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  admin.on('error', () => undefined);
  const servers: ChildProcess[] = [];
  try {
    for (const side of sides) await prepare(admin, side, base, passwordHash);

    // Both APIs run side by side; each signs in as the measured organisation's owner.
    const host = `org${MEASURED}.localhost`;
    for (const side of sides) {
      const server = await serve(side.url, dataDir);
      servers.push(server.child);
      side.address = server.address;
      const signIn = await request(side.address, 'POST', '/api/jwt/create/', { host, origin: `http://${host}` }, JSON.stringify({ email: `owner@org${MEASURED}.bench.test`, password: PASSWORD }));
      const access = signIn.setCookie.map((c) => c.split(';')[0]!).find((c) => c.startsWith('access_token='));
      if (signIn.status >= 300 || !access) throw new Error(`${side.label}: sign-in: ${signIn.status} ${signIn.body}`);
      side.headers = { host, cookie: access };
      for (const c of CASES) {
        const first = `/api/orders/${c.query ? `?${c.query}` : ''}`;
        const probe = JSON.parse((await get(side, first)).body) as { count: number; total_pages: number };
        const page = c.last ? Math.max(1, probe.total_pages) : 1;
        side.targets.push({ count: probe.count, page, path: page === 1 ? first : `/api/orders/?${c.query ? `${c.query}&` : ''}page=${page}`, times: [] });
      }
    }
    small.targets.forEach((t, i) => {
      if (t.path !== large.targets[i]!.path || t.count !== large.targets[i]!.count) throw new Error(`the measured organisation differs between the databases: ${t.path} (${t.count}) vs ${large.targets[i]!.path} (${large.targets[i]!.count})`);
    });

    // Everything warmed up first; then the requests take turns — case by case, small and large
    // alternately, in swapped order each round — so that a passing disturbance (another process on
    // the machine, a checkpoint) falls on both databases and every case alike.
    for (let i = 0; i < WARMUP; i++) for (const side of sides) for (const t of side.targets) await get(side, t.path);
    for (let i = 0; i < REQUESTS; i++) {
      for (let k = 0; k < CASES.length; k++) {
        for (const side of i % 2 ? [large, small] : [small, large]) side.targets[k]!.times.push((await get(side, side.targets[k]!.path)).ms);
      }
    }
    for (const side of sides) {
      side.concurrent = await new Promise<autocannon.Result>((resolve, reject) =>
        autocannon({ url: side.address + side.targets[0]!.path, connections: CONNECTIONS, duration: SECONDS, headers: side.headers }, (err, res) => (err ? reject(err) : resolve(res))),
      );
    }
  } finally {
    for (const child of servers) await stop(child);
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
    for (const side of sides) {
      if (process.env.BENCH_KEEP) console.log(`  kept database ${side.dbName}`);
      else await admin.query(`drop database if exists ${side.dbName} with (force)`);
    }
    await admin.end();
  }

  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
  };
  console.log(`\nGET /api/orders/ as organisation ${MEASURED} (its own ${fmt(ORDERS_PER_ORG)} orders), page_size 25; latency in ms`);
  console.log(`  ${'case'.padEnd(22)} ${'rows'.padStart(5)} ${'page'.padStart(5)}   ${'small p50 / p95'.padStart(15)}   ${'large p50 / p95'.padStart(15)}   ${'large/small p95'.padStart(15)}   p95 < ${TARGET_MS} ms`);
  CASES.forEach((c, i) => {
    const t = large.targets[i]!;
    const s = stats(small.targets[i]!.times);
    const l = stats(t.times);
    const ratio = l.p95 / s.p95;
    const verdict = `${l.p95 < TARGET_MS ? 'yes' : 'NO'}${ratio <= TARGET_RATIO ? '' : ` (ratio > ${TARGET_RATIO})`}`;
    console.log(
      `  ${c.name.padEnd(22)} ${String(t.count).padStart(5)} ${String(t.page).padStart(5)}   ${`${ms(s.p50)} / ${ms(s.p95)}`.padStart(15)}   ${`${ms(l.p50)} / ${ms(l.p95)}`.padStart(15)}   ${ratio.toFixed(2).padStart(15)}   ${verdict}`,
    );
  });
  console.log(`  filtered = payment_status=Fully paid & date_range=30 days; default = no filter. Target: large p95 < ${TARGET_MS} ms and ≤ ${TARGET_RATIO} × small p95.`);
  console.log(`\nConcurrent: filtered first page, ${CONNECTIONS} clients for ${SECONDS} s (autocannon; small, then large)`);
  for (const side of sides) {
    const r = side.concurrent!;
    console.log(`  ${side.label.padEnd(6)} ${r.requests.average.toFixed(0).padStart(5)} requests/s, p50 / p99 ${r.latency.p50} / ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
  }
  // Figures on a busy machine are not this list's alone: say how busy it was.
  console.log(`\nWhole run: ${((performance.now() - started) / 1000).toFixed(0)} s; load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${cpus().length} cores\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
