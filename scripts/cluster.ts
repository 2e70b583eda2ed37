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
import path from 'node:path';
import { APP_LOGIN, buildIfChanged, cluster, topologyTools, urlOf, type Cluster } from './topology';

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

let running: Cluster | undefined;
let stopping = false;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  say('stopping: HAProxy, the API processes (draining), PgBouncer, the replica, the primary');
  await running?.stop();
  say('stopped');
  process.exit(code);
}

async function main() {
  const tools = topologyTools();
  const missing = Object.entries(tools).filter(([, ok]) => !ok).map(([tool]) => tool);
  if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (apt-get install postgresql-15 pgbouncer haproxy)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAll(0));

  if (env.CLUSTER_SKIP_BUILD !== '1') buildIfChanged(root);
  running = cluster({
    root,
    dir,
    ports,
    poolSize,
    healthPath,
    database,
    env,
    say,
    onApiLine: (name, line, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(`[${name}] ${line}\n`),
    onApiExit: (name, how) => {
      if (!stopping) say(`${name} exited (${how})`);
    },
  });
  await running.start();

  const origin = `http://localhost:${ports.http}`;
  process.stdout.write(
    [
      '',
      `  Tourdesk cluster is running at ${origin}`,
      `  Sign in:        ${origin}/auth/login`,
      `  Demo sign-in:   owner@demo.tourdesk.test / tourdesk-demo  (organisation http://demo.localhost:${ports.http})`,
      `  Demo store:     http://demo.localhost:${ports.http}/s/kayak/`,
      `  Primary:        ${running.primary!.url('postgres', database)}`,
      `  Replica:        ${running.replica!.url('postgres', database)}`,
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
