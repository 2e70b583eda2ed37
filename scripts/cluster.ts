/**
 * npm run cluster — the production topology on one machine (README.md, "Running as a cluster";
 * ARCHITECTURE.md, "Topology"):
 *
 *   HAProxy :8080 ─┬─ API :3101 ─┐                      ┌─ PostgreSQL primary :5440 (migrations direct)
 *                  ├─ API :3102 ─┼─ PgBouncer :6432 ────┤
 *                  └─ API :3103 ─┘  (transaction mode)  └─ streaming replica :5441 (DATABASE_READ_URL)
 *
 * Builds when the sources changed (scripts/start.mjs), then starts a PostgreSQL 15 primary of its
 * own (initdb in CLUSTER_DIR/primary on the first run), migrates it as the owner (directly: a
 * migration holds a session advisory lock, which a pooler in transaction mode cannot keep), makes
 * the API's login role (tourdesk_api, whose defaults run it as tourdesk_server without JIT), a
 * streaming replica (pg_basebackup -R into CLUSTER_DIR/replica), PgBouncer in transaction mode, the
 * three API processes (the first seeds the demo), and HAProxy in front of them, checking each on
 * CLUSTER_HEALTH_PATH. Ctrl-C or SIGTERM stops everything, the API processes first.
 *
 * Settings (environment): CLUSTER_DIR (default DATA_DIR/cluster, DATA_DIR ./.data),
 * CLUSTER_PRIMARY_PORT (5440), CLUSTER_REPLICA_PORT (5441), CLUSTER_PGBOUNCER_PORT (6432),
 * CLUSTER_HTTP_PORT (8080), CLUSTER_API_PORTS (3101,3102,3103), CLUSTER_POOL_SIZE (PgBouncer's
 * server connections, 20), CLUSTER_HEALTH_PATH (/api/health/ready), CLUSTER_SKIP_BUILD=1 (use the
 * build as it is), LOG_LEVEL (warn). Every server listens on 127.0.0.1 only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { APP_LOGIN, ensureAppLogin, haProxy, pgBouncer, sqlOn, startPrimary, startReplica, topologyTools, urlOf, type Daemon, type PostgresServer } from './topology';

const root = path.resolve(import.meta.dirname, '..');
const env = process.env;
const port = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number`);
  return value;
};
const dir = path.resolve(env.CLUSTER_DIR ?? path.join(env.DATA_DIR ?? path.join(root, '.data'), 'cluster'));
const ports = {
  primary: port('CLUSTER_PRIMARY_PORT', 5440),
  replica: port('CLUSTER_REPLICA_PORT', 5441),
  pgbouncer: port('CLUSTER_PGBOUNCER_PORT', 6432),
  http: port('CLUSTER_HTTP_PORT', 8080),
  apis: (env.CLUSTER_API_PORTS ?? '3101,3102,3103').split(',').map((p, i) => port(`CLUSTER_API_PORTS[${i}]`, Number(p))),
};
const poolSize = Number(env.CLUSTER_POOL_SIZE ?? 20);
const healthPath = env.CLUSTER_HEALTH_PATH ?? '/api/health/ready';
const database = 'tourdesk';

const say = (line: string) => process.stdout.write(`cluster: ${line}\n`);

let primary: PostgresServer | undefined;
let replica: PostgresServer | undefined;
let bouncer: Daemon | undefined;
let proxy: Daemon | undefined;
const apis: ChildProcess[] = [];
let stopping = false;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  say('stopping: HAProxy, the API processes (draining), PgBouncer, the replica, the primary');
  await proxy?.stop().catch(() => undefined);
  await Promise.all(
    apis.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    }),
  );
  await bouncer?.stop().catch(() => undefined);
  replica?.stop();
  primary?.stop();
  say('stopped');
  process.exit(code);
}

function startApi(index: number, extra: Record<string, string>): Promise<ChildProcess> {
  const name = `api${index + 1}`;
  const child = spawn(process.execPath, ['--max-semi-space-size=32', 'apps/api/dist/server.js'], {
    cwd: root,
    env: {
      ...env,
      PORT: String(ports.apis[index]),
      HOST: '127.0.0.1',
      DATABASE_URL: urlOf(ports.pgbouncer, APP_LOGIN, database),
      MIGRATION_DATABASE_URL: urlOf(ports.primary, 'postgres', database),
      DATABASE_READ_URL: urlOf(ports.replica, APP_LOGIN, database),
      MIGRATE_ON_START: 'false',
      DATA_DIR: path.join(dir, 'data'),
      PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${ports.http}`,
      TRUST_PROXY: 'true',
      // HAProxy takes a process out after two failed checks a second apart: it stays up, not ready,
      // longer than that once told to stop, so no request reaches a closed listener.
      SHUTDOWN_READY_GRACE_MS: env.SHUTDOWN_READY_GRACE_MS ?? '3000',
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  apis[index] = child;
  let banner = '';
  const prefix = (chunk: Buffer, to: NodeJS.WriteStream) => {
    const text = chunk.toString();
    if (!banner.includes('Tourdesk is running')) banner += text;
    else for (const line of text.split('\n')) if (line.trim()) to.write(`[${name}] ${line}\n`);
  };
  child.stdout!.on('data', (d: Buffer) => prefix(d, process.stdout));
  child.stderr!.on('data', (d: Buffer) => prefix(d, process.stderr));
  child.on('exit', (code, signal) => {
    if (!stopping) say(`${name} exited (${signal ?? `code ${code}`})`);
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (banner.includes('Tourdesk is running')) {
        clearInterval(timer);
        resolve(child);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${name} did not start:\n${banner}`));
      }
    }, 100);
  });
}

async function main() {
  const tools = topologyTools();
  const missing = Object.entries(tools).filter(([, ok]) => !ok).map(([tool]) => tool);
  if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (apt-get install postgresql-15 pgbouncer haproxy)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAll(0));

  if (env.CLUSTER_SKIP_BUILD !== '1') {
    const build = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: root, stdio: 'inherit', env: { ...env, START_BUILD_ONLY: '1' } });
    if (build.status !== 0) throw new Error('the build failed');
  }
  mkdirSync(dir, { recursive: true });

  say(`PostgreSQL primary on 127.0.0.1:${ports.primary} (${path.join(dir, 'primary')})`);
  primary = startPrimary(path.join(dir, 'primary'), ports.primary);
  const exists = await sqlOn(primary.url(), 'select 1 from pg_database where datname = $1', [database]);
  if (exists.rowCount === 0) await sqlOn(primary.url(), `create database ${database}`);

  say('migrating as the owner, directly on the primary');
  const migrate = spawnSync(process.execPath, ['apps/api/dist/migrate.js'], { cwd: root, stdio: 'inherit', env: { ...env, DATABASE_URL: primary.url('postgres', database), MIGRATION_DATABASE_URL: '' } });
  if (migrate.status !== 0) throw new Error('the migration failed');
  await ensureAppLogin(primary.url('postgres', database), database);

  say(`streaming replica on 127.0.0.1:${ports.replica} (${path.join(dir, 'replica')})`);
  replica = startReplica(primary, path.join(dir, 'replica'), ports.replica);

  say(`PgBouncer (transaction mode, ${poolSize} server connections) on 127.0.0.1:${ports.pgbouncer}`);
  bouncer = pgBouncer(path.join(dir, 'pgbouncer'), ports.pgbouncer, primary, poolSize);
  await bouncer.start();

  say(`API processes on ${ports.apis.map((p) => `127.0.0.1:${p}`).join(', ')}`);
  // The first seeds the demo before the others start.
  await startApi(0, { SEED_DEMO: 'true' });
  await Promise.all(ports.apis.slice(1).map((_, i) => startApi(i + 1, { SEED_DEMO: 'false' })));

  say(`HAProxy on 127.0.0.1:${ports.http}, checking each API on ${healthPath}`);
  proxy = haProxy(path.join(dir, 'haproxy'), ports.http, ports.apis, healthPath);
  await proxy.start();

  const origin = `http://localhost:${ports.http}`;
  process.stdout.write(
    [
      '',
      `  Tourdesk cluster is running at ${origin}`,
      `  Sign in:        ${origin}/auth/login`,
      `  Demo sign-in:   owner@demo.tourdesk.test / tourdesk-demo  (organisation http://demo.localhost:${ports.http})`,
      `  Demo store:     http://demo.localhost:${ports.http}/s/kayak/`,
      `  Primary:        ${primary.url('postgres', database)}`,
      `  Replica:        ${replica.url('postgres', database)}`,
      `  PgBouncer:      ${urlOf(ports.pgbouncer, APP_LOGIN, database)}`,
      '  Ctrl-C stops everything.',
      '',
      '',
    ].join('\n'),
  );
}

main().catch(async (error: unknown) => {
  console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
});
