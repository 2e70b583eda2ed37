/**
 * The parts of a production-like topology on one machine, for `npm run cluster` (scripts/cluster.ts)
 * and the tests that need them (apps/api/test/pooling.int.test.ts, read-replica.int.test.ts): a
 * PostgreSQL 15 primary of its own (initdb in a folder), a streaming replica made from it with
 * pg_basebackup -R, PgBouncer in transaction pooling mode and HAProxy. Each listens on 127.0.0.1
 * only, trusts loopback connections (no passwords: a local cluster, not a deployment) and is
 * stopped by stop(). PostgreSQL refuses to run as root: run as root, the servers run as the OS user
 * `postgres` (runuser), which owns their folders.
 */
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
export const HAPROXY = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

/** The login role the API's pooled connections use: its defaults make it run as tourdesk_server. */
export const APP_LOGIN = 'tourdesk_api';

const isRoot = () => process.getuid?.() === 0;
const RUN_AS = 'postgres';

/** Whether the tools a topology needs are installed (tests skip without them). */
export function topologyTools(): { postgres: boolean; pgbouncer: boolean; haproxy: boolean } {
  return {
    postgres: existsSync(path.join(PG_BIN, 'initdb')) && existsSync(path.join(PG_BIN, 'pg_basebackup')),
    pgbouncer: existsSync(PGBOUNCER),
    haproxy: existsSync(HAPROXY),
  };
}

/** A command as the unprivileged user when we are root. */
function asUser(file: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', RUN_AS, '--', file, ...args]] : [file, args];
}

function run(file: string, args: string[], options: { quiet?: boolean } = {}) {
  const [cmd, cmdArgs] = asUser(file, args);
  return execFileSync(cmd, cmdArgs, { stdio: options.quiet ? 'pipe' : ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

/** run() without blocking this process (a harness keeps serving its own sockets meanwhile). */
async function runAsync(file: string, args: string[]) {
  const [cmd, cmdArgs] = asUser(file, args);
  return (await promisify(execFile)(cmd, cmdArgs, { encoding: 'utf8' })).stdout;
}

/** A folder the servers' user owns (made if missing). */
export function ownedDir(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', RUN_AS], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', RUN_AS], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** The parent folders must let the servers' user in (a temp folder made by root is 0700). */
function openPath(dir: string) {
  if (!isRoot()) return;
  let current = path.resolve(dir);
  while (current !== path.dirname(current)) {
    current = path.dirname(current);
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) execFileSync('chmod', ['o+x', current]);
  }
}

export const urlOf = (port: number, user = 'postgres', database = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`;

export interface PostgresServer {
  port: number;
  dir: string;
  url(user?: string, database?: string): string;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
  /** Stops the server (`mode`) and starts it again, without blocking this process (the chaos test's restart). */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
}

function postgresServer(dir: string, port: number): PostgresServer {
  const log = path.join(dir, '..', `${path.basename(dir)}.log`);
  const pgCtl = path.join(PG_BIN, 'pg_ctl');
  const startArgs = ['-D', dir, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k '' -c listen_addresses=127.0.0.1`, 'start'];
  return {
    port,
    dir,
    url: (user, database) => urlOf(port, user, database),
    start() {
      run(pgCtl, startArgs, { quiet: true });
    },
    async restart(mode) {
      await runAsync(pgCtl, ['-D', dir, '-m', mode, '-w', '-t', '60', 'stop']);
      await runAsync(pgCtl, startArgs);
    },
    stop(mode = 'fast') {
      if (!existsSync(path.join(dir, 'postmaster.pid'))) return;
      try {
        run(path.join(PG_BIN, 'pg_ctl'), ['-D', dir, '-m', mode, '-w', '-t', '60', 'stop'], { quiet: true });
      } catch {
        // Already stopped.
      }
    },
  };
}

/**
 * A primary of its own in `dir` (initdb when empty), ready for a streaming replica
 * (wal_level=replica, replication from loopback), listening on 127.0.0.1:`port`.
 */
export function startPrimary(dir: string, port: number): PostgresServer {
  openPath(dir);
  ownedDir(path.dirname(dir));
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    ownedDir(dir);
    run(path.join(PG_BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C'], { quiet: true });
    writeFileSync(
      path.join(dir, 'postgresql.auto.conf'),
      [
        'wal_level = replica',
        'max_wal_senders = 5',
        'hot_standby = on',
        'max_connections = 200',
        'fsync = on',
        "unix_socket_directories = ''",
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'pg_hba.conf'), ['host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust', ''].join('\n'));
    ownedDir(dir);
    for (const f of ['postgresql.auto.conf', 'pg_hba.conf']) if (isRoot()) execFileSync('chown', [`${RUN_AS}:${RUN_AS}`, path.join(dir, f)]);
  }
  const server = postgresServer(dir, port);
  server.start();
  return server;
}

/** A streaming replica of `primary` in `dir` (pg_basebackup -R when empty), on 127.0.0.1:`port`. */
export function startReplica(primary: PostgresServer, dir: string, port: number): PostgresServer {
  openPath(dir);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    ownedDir(dir);
    if (readdirSync(dir).length === 0) {
      run(path.join(PG_BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'], { quiet: true });
    }
  }
  const server = postgresServer(dir, port);
  server.start();
  return server;
}

/** Runs SQL on a server as postgres (one connection). */
export async function sqlOn(url: string, text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * The API's login role for pooled connections: a member of tourdesk_server whose defaults make each
 * session run as it, without JIT (the settings the API otherwise sends as startup options, which
 * PgBouncer refuses). Needs the migrations (tourdesk_server) first.
 */
export async function ensureAppLogin(primaryUrl: string, database: string) {
  await sqlOn(
    primaryUrl,
    `do $$ begin
       if not exists (select 1 from pg_roles where rolname = '${APP_LOGIN}') then create role ${APP_LOGIN} login; end if;
     end $$;
     grant tourdesk_server to ${APP_LOGIN};
     grant connect on database ${database} to ${APP_LOGIN};
     alter role ${APP_LOGIN} set role = tourdesk_server;
     alter role ${APP_LOGIN} set jit = off;`,
  );
}

export interface Daemon {
  port: number;
  process(): ChildProcess | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, output: () => string, ms = 15_000) {
  const { connect } = await import('node:net');
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}:\n${output()}`);
}

function daemon(name: string, port: number, file: string, args: string[], unprivileged: boolean): Daemon {
  let child: ChildProcess | undefined;
  let output = '';
  return {
    port,
    process: () => child,
    async start() {
      const [cmd, cmdArgs] = unprivileged ? asUser(file, args) : [file, args];
      output = '';
      const spawned = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = spawned;
      spawned.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
      spawned.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
      try {
        await waitForPort(port, spawned, () => output);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      // runuser passes SIGTERM on to the server it runs.
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * PgBouncer in transaction pooling mode in front of `target`, on 127.0.0.1:`port`, with
 * `poolSize` server connections per database and user. Its own folder holds its configuration.
 */
export function pgBouncer(dir: string, port: number, target: PostgresServer, poolSize: number, users: string[] = ['postgres', APP_LOGIN]): Daemon {
  ownedDir(dir);
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'userlist.txt'), users.map((u) => `"${u}" ""`).join('\n') + '\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 2000',
      // node-postgres sends none of these; any other unknown startup parameter is refused.
      'ignore_startup_parameters = extra_float_digits',
      'server_reset_query =',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  if (isRoot()) execFileSync('chown', ['-R', `${RUN_AS}:${RUN_AS}`, dir]);
  return daemon('pgbouncer', port, PGBOUNCER, [ini], true);
}

/**
 * HAProxy on 127.0.0.1:`port`, round robin over the API processes' ports, each checked every
 * second on `healthPath` (the process is taken out after 2 failures, back after 2 passes).
 */
export function haProxy(dir: string, port: number, backends: number[], healthPath: string): Daemon {
  mkdirSync(dir, { recursive: true });
  const cfg = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  retries 2',
      '  option redispatch',
      '  retry-on conn-failure empty-response response-timeout',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  option forwardfor',
      '  default_backend api',
      'backend api',
      '  balance roundrobin',
      '  option httpchk',
      `  http-check send meth GET uri ${healthPath} hdr Host localhost`,
      '  http-check expect status 200',
      '  default-server inter 1s fall 2 rise 2',
      ...backends.map((p, i) => `  server api${i + 1} 127.0.0.1:${p} check`),
      '',
    ].join('\n'),
  );
  // -db: stay in the foreground, so stop() is a signal to this child.
  return daemon('haproxy', port, HAPROXY, ['-db', '-f', cfg], false);
}

export const whoami = () => userInfo().username;

/** One API process (the built apps/api/dist/server.js with the Node flags of `npm start`). */
export interface ApiProcess {
  name: string;
  port: number;
  process(): ChildProcess | undefined;
  /** Starts it and resolves once it says it runs. */
  start(extra?: Record<string, string>): Promise<void>;
  /** A signal, then waits for the exit (SIGKILL: a crash; SIGTERM: a drain). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface ApiProcessOptions {
  root: string;
  name: string;
  port: number;
  env: Record<string, string | undefined>;
  /** Each line it writes once it runs (before that, its output is kept for the error of a failed start). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** It exited (a crash, a kill): its signal or code. */
  onExit?: (how: string) => void;
}

export function apiProcess({ root, name, port, env, onLine, onExit }: ApiProcessOptions): ApiProcess {
  let child: ChildProcess | undefined;
  return {
    name,
    port,
    process: () => child,
    start(extra = {}) {
      const spawned = spawn(process.execPath, ['--max-semi-space-size=32', 'apps/api/dist/server.js'], { cwd: root, env: { ...env, PORT: String(port), HOST: '127.0.0.1', ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      child = spawned;
      let banner = '';
      const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
        const text = chunk.toString();
        if (!banner.includes('Tourdesk is running')) banner += text;
        else for (const line of text.split('\n')) if (line.trim()) onLine?.(line, stream);
      };
      spawned.stdout!.on('data', take('stdout'));
      spawned.stderr!.on('data', take('stderr'));
      spawned.on('exit', (code, signal) => onExit?.(signal ?? `code ${code}`));
      return new Promise((resolve, reject) => {
        const timer = setInterval(() => {
          if (banner.includes('Tourdesk is running')) {
            clearInterval(timer);
            resolve();
          } else if (spawned.exitCode !== null || spawned.signalCode !== null) {
            clearInterval(timer);
            reject(new Error(`${name} did not start:\n${banner}`));
          }
        }, 100);
      });
    },
    async kill(signal) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill(signal);
      await exited;
    },
  };
}

export interface ClusterOptions {
  root: string;
  /** Where the primary, the replica, PgBouncer's and HAProxy's files and the media live. */
  dir: string;
  ports: { primary: number; replica: number; pgbouncer: number; http: number; apis: number[] };
  /** PgBouncer's server connections to the primary. */
  poolSize: number;
  /** What HAProxy checks on each process. */
  healthPath: string;
  database: string;
  /** The API processes' environment (besides what the topology sets); the first also gets SEED_DEMO=true. */
  env: Record<string, string | undefined>;
  say: (line: string) => void;
  onApiLine?: (name: string, line: string, stream: 'stdout' | 'stderr') => void;
  onApiExit?: (name: string, how: string) => void;
}

export interface Cluster {
  primary?: PostgresServer;
  replica?: PostgresServer;
  bouncer?: Daemon;
  proxy?: Daemon;
  apis: ApiProcess[];
  /** The primary, as the owner, on the application's database. */
  ownerUrl(): string;
  start(): Promise<void>;
  /** HAProxy, the API processes (drained), PgBouncer, the replica, the primary: whatever was started. */
  stop(): Promise<void>;
}

/**
 * The whole topology of `npm run cluster` (scripts/cluster.ts) and `npm run chaos` (scripts/chaos.ts):
 * a primary of its own with the application's database (made when missing), migrated as the owner
 * directly on it (a migration holds a session advisory lock, which a pooler in transaction mode
 * cannot keep), the API's login role, a streaming replica, PgBouncer in transaction mode, the API
 * processes (the first seeds the demo before the others start) and HAProxy in front of them.
 */
export function cluster(options: ClusterOptions): Cluster {
  const { root, dir, ports, poolSize, healthPath, database, say } = options;
  const apiEnv = {
    ...options.env,
    DATABASE_URL: urlOf(ports.pgbouncer, APP_LOGIN, database),
    MIGRATION_DATABASE_URL: urlOf(ports.primary, 'postgres', database),
    DATABASE_READ_URL: urlOf(ports.replica, APP_LOGIN, database),
    MIGRATE_ON_START: 'false',
    DATA_DIR: path.join(dir, 'data'),
    PUBLIC_URL: options.env.PUBLIC_URL ?? `http://localhost:${ports.http}`,
    TRUST_PROXY: 'true',
    // HAProxy takes a process out after two failed checks a second apart: it stays up, not ready,
    // longer than that once told to stop, so no request reaches a closed listener.
    SHUTDOWN_READY_GRACE_MS: options.env.SHUTDOWN_READY_GRACE_MS ?? '3000',
    LOG_LEVEL: options.env.LOG_LEVEL ?? 'warn',
  };
  const apis = ports.apis.map((port, i) =>
    apiProcess({
      root,
      name: `api${i + 1}`,
      port,
      env: apiEnv,
      onLine: (line, stream) => options.onApiLine?.(`api${i + 1}`, line, stream),
      onExit: (how) => options.onApiExit?.(`api${i + 1}`, how),
    }),
  );
  const self: Cluster = {
    apis,
    ownerUrl: () => urlOf(ports.primary, 'postgres', database),
    async start() {
      mkdirSync(dir, { recursive: true });
      say(`PostgreSQL primary on 127.0.0.1:${ports.primary} (${path.join(dir, 'primary')})`);
      self.primary = startPrimary(path.join(dir, 'primary'), ports.primary);
      const exists = await sqlOn(self.primary.url(), 'select 1 from pg_database where datname = $1', [database]);
      if (exists.rowCount === 0) await sqlOn(self.primary.url(), `create database ${database}`);

      say('migrating as the owner, directly on the primary');
      const migrate = spawnSync(process.execPath, ['apps/api/dist/migrate.js'], { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: self.primary.url('postgres', database), MIGRATION_DATABASE_URL: '' } });
      if (migrate.status !== 0) throw new Error('the migration failed');
      await ensureAppLogin(self.primary.url('postgres', database), database);

      say(`streaming replica on 127.0.0.1:${ports.replica} (${path.join(dir, 'replica')})`);
      self.replica = startReplica(self.primary, path.join(dir, 'replica'), ports.replica);

      say(`PgBouncer (transaction mode, ${poolSize} server connections) on 127.0.0.1:${ports.pgbouncer}`);
      self.bouncer = pgBouncer(path.join(dir, 'pgbouncer'), ports.pgbouncer, self.primary, poolSize);
      await self.bouncer.start();

      say(`API processes on ${ports.apis.map((p) => `127.0.0.1:${p}`).join(', ')}`);
      await apis[0]!.start({ SEED_DEMO: 'true' });
      await Promise.all(apis.slice(1).map((api) => api.start({ SEED_DEMO: 'false' })));

      say(`HAProxy on 127.0.0.1:${ports.http}, checking each API on ${healthPath}`);
      self.proxy = haProxy(path.join(dir, 'haproxy'), ports.http, ports.apis, healthPath);
      await self.proxy.start();
    },
    async stop() {
      await self.proxy?.stop().catch(() => undefined);
      await Promise.all(apis.map((api) => api.kill('SIGTERM')));
      await self.bouncer?.stop().catch(() => undefined);
      self.replica?.stop();
      self.primary?.stop();
    },
  };
  return self;
}

/** Builds when the sources changed since the last build (scripts/start.mjs with START_BUILD_ONLY). */
export function buildIfChanged(root: string) {
  const build = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: root, stdio: 'inherit', env: { ...process.env, START_BUILD_ONLY: '1' } });
  if (build.status !== 0) throw new Error('the build failed');
}
