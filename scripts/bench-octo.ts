/**
 * npm run bench (its OCTO part) — POST /octo/v1/availability for 30 days of one product, with a
 * partner's API key (authenticated, rate limited, in the supplier's tenant, the pricing capability
 * asked for), against the bare-handler baseline of scripts/bench.ts (a bare Fastify handler running
 * one indexed SELECT of the same slots), on the PostgreSQL server (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres). Both servers run in processes of their own with the
 * Node flags of `npm start`, take turns (three rounds each) after a warm-up of each, and 64 clients
 * load them. It prints the OCTO rate as a share of the baseline's (target ≥ 60 %) and both answers'
 * sizes and rows (the baseline reads the same slots; OCTO's answer is ~5× larger by its fields and
 * unitPricing per departure); it asserts nothing. PostgreSQL's CPU per request is that of the
 * backends connected to the bench's database (other work on the server is not counted). Beside them, for reference only, a bare handler
 * sending the rows of the statement the API runs (tourdesk_availability()), which tells the
 * database's definition of seats left from the API's own layers.
 *
 * `node bench-octo.ts serve <url> <dataDir>` is its API server (the app with the key's rate limit
 * raised above what a run can send: the limiter still counts every call).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { openAppDatabase as openDatabase } from '../apps/api/src/database';
import { baseAccount, role, users } from '../apps/api/src/db/schema';
import { hashPassword } from '../apps/api/src/modules/auth/crypto';
import { PERMISSION_SETS } from '../packages/contracts/src';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLIENTS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 3;
const NODE_FLAGS = ['--max-semi-space-size=32'];
/** BENCH_OCTO_PRICING=0 asks without the pricing capability (no unitPricing per departure). */
const CAPABILITIES = process.env.BENCH_OCTO_PRICING === '0' ? '' : 'octo/pricing';

function appConfig(dataDir: string) {
  return loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, LOGIN_LIMIT_PER_IP: '100000', LOGIN_LIMIT_PER_EMAIL: '100000', API_KEY_RATE_LIMIT: '1000000000' });
}

async function serveApp(url: string, dataDir: string) {
  process.on('SIGINT', () => process.exit(0));
  const config = appConfig(dataDir);
  const database = await openDatabase({ url, poolSize: config.DATABASE_POOL_SIZE });
  const app = await buildApp({ config, database });
  process.send!({ address: await app.listen({ port: 0, host: '127.0.0.1' }) });
}

/**
 * A reference beside the baseline, not instead of it: a bare Fastify handler that sends the rows
 * of the statement the API runs (tourdesk_availability: the tenant scope, seats left, open for
 * sale, the rates), so the figures tell the database's definition from the API's layers.
 */
async function serveBareSame(url: string) {
  const bare = Fastify();
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  bare.get<{ Querystring: { account: string; experience: string; from: string; to: string } }>('/slots', async (request) => {
    const q = request.query;
    return (await pool.query('select * from tourdesk_availability($1::uuid, $2::uuid, $3::date, $4::date)', [q.account, q.experience, q.from, q.to])).rows;
  });
  process.send!({ address: await bare.listen({ port: 0, host: '127.0.0.1' }) });
}

function serve(mode: 'app' | 'bare' | 'bare-same', url: string, dataDir: string) {
  const child =
    mode === 'bare'
      ? fork(path.join(import.meta.dirname, 'bench-server.ts'), ['bare'], { execArgv: ['--import', 'tsx', ...NODE_FLAGS], env: { ...process.env, BENCH_URL: url, BENCH_DATA_DIR: dataDir } })
      : mode === 'bare-same'
        ? fork(import.meta.filename, ['serve-bare-same', url], { execArgv: ['--import', 'tsx', ...NODE_FLAGS] })
        : fork(import.meta.filename, ['serve', url, dataDir], { execArgv: ['--import', 'tsx', ...NODE_FLAGS, ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])] });
  return new Promise<{ child: ChildProcess; address: string }>((resolve, reject) => {
    child.once('message', (m) => resolve({ child, address: (m as { address: string }).address }));
    child.once('exit', (code) => reject(new Error(`bench server (${mode}) exited with ${code}`)));
  });
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null once it is gone. */
function cpuOf(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The PostgreSQL backends connected to the bench's database (the servers' pools): their CPU is
 * what the calls cost the database. Other databases' work on the same server (other tests, other
 * benches) is not counted, nor backends that start or end elsewhere during a run.
 */
let backendsOf: () => Promise<number[]> = async () => [];

/** CPU time (ms) used so far by one process and by each backend of the bench's database. */
async function cpuNow(pid: number | undefined) {
  const postgres = new Map<number, number>();
  for (const backend of await backendsOf()) {
    const ms = cpuOf(backend);
    if (ms !== null) postgres.set(backend, ms);
  }
  return { api: (pid && cpuOf(pid)) || 0, postgres };
}
const spent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((n, [pid, ms]) => n + ms - (before.get(pid) ?? 0), 0);

interface Measured {
  ok: number;
  non2xx: number;
  seconds: number;
  api: number;
  postgres: number;
  p50: number[];
  p99: number[];
}

async function measure(opts: autocannon.Options, pid: number | undefined, seconds: number): Promise<Measured> {
  const before = await cpuNow(pid);
  const r = await new Promise<autocannon.Result>((resolve, reject) => autocannon({ ...opts, duration: seconds }, (err, res) => (err ? reject(err) : resolve(res))));
  const after = await cpuNow(pid);
  return { ok: r['2xx'], non2xx: r.non2xx, seconds, api: after.api - before.api, postgres: spent(before.postgres, after.postgres), p50: [r.latency.p50], p99: [r.latency.p99] };
}
const together = (runs: Measured[]): Measured =>
  runs.reduce((a, b) => ({ ok: a.ok + b.ok, non2xx: a.non2xx + b.non2xx, seconds: a.seconds + b.seconds, api: a.api + b.api, postgres: a.postgres + b.postgres, p50: [...a.p50, ...b.p50], p99: [...a.p99, ...b.p99] }));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(48)} ${value}`);

async function main() {
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  admin.on('error', () => undefined);
  const dbName = `tourdesk_bench_octo_${randomBytes(3).toString('hex')}`;
  await admin.query(`create database ${dbName}`);
  const url = new URL(SERVER);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tourdesk-bench-octo-'));
  try {
    const database = await openDatabase({ url: url.toString(), poolSize: 20 });
    await database.migrate();
    const app = await buildApp({ config: appConfig(dataDir), database });
    // The supplier (one product, six departures a day) and the reseller, under an Active contract.
    const [supplier] = await database.db.insert(baseAccount).values({ name: 'Bench Tours', subdomain: 'bench', kind: 'supplier', subscription_tier_id: 'supplier-standard', time_zone: 'Europe/Zurich' }).returning();
    const [reseller] = await database.db.insert(baseAccount).values({ name: 'Bench Agency', subdomain: 'benchagency', kind: 'affiliate', subscription_tier_id: 'affiliate-standard', time_zone: 'Europe/Zurich' }).returning();
    const [owner] = await database.db.insert(role).values({ account_id: supplier!.id, name: 'Owner', is_owner: true, permission_set_ids: PERMISSION_SETS.map((s) => s.id) }).returning();
    await database.db.insert(users).values({ account_id: supplier!.id, email: 'owner@bench.test', password_hash: await hashPassword('bench-password'), role_id: owner!.id, is_active: true });
    const login = await app.inject({ method: 'POST', url: '/api/jwt/create/', headers: { host: 'bench.localhost', origin: 'http://bench.localhost' }, payload: { email: 'owner@bench.test', password: 'bench-password' } });
    const cookie = `access_token=${login.cookies.find((c) => c.name === 'access_token')!.value}`;
    const call = async (method: string, path_: string, body?: unknown) => {
      const res = await app.inject({ method: method as 'POST', url: path_, headers: { host: 'bench.localhost', origin: 'http://bench.localhost', cookie }, payload: body as object });
      if (res.statusCode >= 300) throw new Error(`${method} ${path_}: ${res.statusCode} ${res.body}`);
      return res.statusCode === 204 ? null : res.json();
    };
    const exp = await call('POST', '/api/experiences/', { title: 'Bench kayak', type: 'Ticket & Passes', short_description: 'Bench' });
    const adult = await call('POST', '/api/pricing-categories/', { type: 'Adult', label: 'Adult' });
    const child = await call('POST', '/api/pricing-categories/', { type: 'Child', label: 'Child' });
    await call('POST', '/api/pricing-rates/', { experience: exp.id, pricing_category: adult.id, retail_price: 4900 });
    await call('POST', '/api/pricing-rates/', { experience: exp.id, pricing_category: child.id, retail_price: 2500 });
    await database.db.execute(sql`insert into image (account_id, experience_id, status, original_name) values (${supplier!.id}, ${exp.id}, 'ready', 'x.jpg')`);
    const today = new Date().toISOString().slice(0, 10);
    await call('POST', '/api/schedule-rules/', { experience: exp.id, valid_from: today, start_times: ['08:00', '10:00', '12:00', '14:00', '16:00', '18:00'], capacity: 40 });
    await call('PATCH', `/api/experiences/${exp.id}/`, { status: 'Active' });
    const secret = `td_${randomBytes(32).toString('base64url')}`;
    await database.asOwner(async (tx) => {
      const made = (await tx.execute(sql`
        insert into partnership (supplier_account_id, reseller_account_id, invited_by_account_id, status, commission_bp, currency)
        values (${supplier!.id}, ${reseller!.id}, ${supplier!.id}, 'Active', 1500, 'EUR') returning id`)) as unknown as { rows: { id: string }[] };
      const partnership = made.rows[0]!.id;
      await tx.execute(sql`insert into partnership_experience (partnership_id, account_id, experience_id) values (${partnership}, ${supplier!.id}, ${exp.id})`);
      await tx.execute(sql`insert into api_key (account_id, partnership_id, name, prefix, secret_hash) values (${supplier!.id}, ${partnership}, 'bench', ${secret.slice(0, 10)}, ${createHash('sha256').update(secret).digest('hex')})`);
    });
    await database.asOwner((tx) => tx.execute(sql`analyze`));
    await app.close();
    await database.close();

    backendsOf = async () => (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r) => r.pid);
    const to = new Date(Date.now() + 29 * 86_400_000).toISOString().slice(0, 10);
    const api = await serve('app', url.toString(), dataDir);
    const bare = await serve('bare', url.toString(), dataDir);
    const same = await serve('bare-same', url.toString(), dataDir);
    const body = JSON.stringify({ productId: exp.id, optionId: 'DEFAULT', localDateStart: today, localDateEnd: to });
    const check = await fetch(`${api.address}/octo/v1/availability`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'octo-capabilities': CAPABILITIES }, body });
    const octoText = await check.text();
    const slots = JSON.parse(octoText) as unknown[];
    if (check.status !== 200 || slots.length < 150) throw new Error(`OCTO availability answered ${check.status} with ${slots.length} departures`);
    // The baseline reads the same slots (the product's, the same 30 days) in one indexed SELECT.
    const bareText = await (await fetch(`${bare.address}/slots?account=${supplier!.id}&experience=${exp.id}&from=${today}&to=${to}`)).text();
    const bareRows = (JSON.parse(bareText) as unknown[]).length;
    const octoRun = (seconds: number) =>
      measure({ url: `${api.address}/octo/v1/availability`, method: 'POST', connections: CLIENTS, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'octo-capabilities': CAPABILITIES }, body }, api.child.pid, seconds);
    const bareRun = (seconds: number) => measure({ url: `${bare.address}/slots?account=${supplier!.id}&experience=${exp.id}&from=${today}&to=${to}`, connections: CLIENTS }, bare.child.pid, seconds);
    const sameRun = (seconds: number) => measure({ url: `${same.address}/slots?account=${supplier!.id}&experience=${exp.id}&from=${today}&to=${to}`, connections: CLIENTS }, same.child.pid, seconds);
    await octoRun(3);
    await bareRun(3);
    await sameRun(3);
    const octoRuns: Measured[] = [];
    const bareRuns: Measured[] = [];
    const sameRuns: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      octoRuns.push(await octoRun(SECONDS / 2));
      bareRuns.push(await bareRun(SECONDS / 2));
      sameRuns.push(await sameRun(SECONDS / 2));
    }
    const octo = together(octoRuns);
    const base = together(bareRuns);
    const sameBase = together(sameRuns);
    const rate = (m: Measured) => m.ok / m.seconds;
    const cpu = (m: Measured) => `API ${(m.api / Math.max(1, m.ok + m.non2xx)).toFixed(2)} · PostgreSQL ${(m.postgres / Math.max(1, m.ok + m.non2xx)).toFixed(2)}`;
    console.log(`\nOCTO availability — POST /octo/v1/availability, 30 days of one product (${slots.length} departures${CAPABILITIES ? ', pricing' : ', no pricing'}), ${CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS / 2} s each\n`);
    line('requests per second', rate(octo).toFixed(0));
    line('latency p50 / p99 (ms, median of the rounds)', `${median(octo.p50)} / ${median(octo.p99)}`);
    line('non-2xx answers', String(octo.non2xx));
    line('CPU per request (ms)', cpu(octo));
    line('bare Fastify + one indexed SELECT (req/s)', rate(base).toFixed(0));
    line('CPU per request (ms)', cpu(base));
    line('answer size: OCTO / bare (kB, departures / rows)', `${(Buffer.byteLength(octoText) / 1024).toFixed(0)} / ${(Buffer.byteLength(bareText) / 1024).toFixed(0)}  (${slots.length} / ${bareRows})`);
    line('OCTO availability as a share of the bare handler', `${((rate(octo) / rate(base)) * 100).toFixed(0)}%  (target ≥ 60%)`);
    console.log('\n  For reference (not the target): a bare handler sending tourdesk_availability()’s rows');
    line('requests per second', rate(sameBase).toFixed(0));
    line('CPU per request (ms)', cpu(sameBase));
    line('OCTO availability as a share of it', `${((rate(octo) / rate(sameBase)) * 100).toFixed(0)}%`);
    console.log('');
    api.child.kill('SIGINT');
    bare.child.kill();
    same.child.kill();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

if (process.argv[2] === 'serve-bare-same') {
  serveBareSame(process.argv[3]!).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (process.argv[2] === 'serve') {
  serveApp(process.argv[3]!, process.argv[4]!).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
