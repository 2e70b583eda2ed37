/**
 * The parts of a production-like topology on one machine, for `npm run cluster` (scripts/cluster.ts)
 * and the tests that need them (apps/api/test/pooling.int.test.ts, read-replica.int.test.ts): a
 * PostgreSQL 15 primary of its own (initdb in a folder), a streaming replica made from it with
 * pg_basebackup -R, PgBouncer in transaction pooling mode and HAProxy. Each listens on 127.0.0.1
 * only, trusts loopback connections (no passwords: a local cluster, not a deployment) and is
 * stopped by stop(). PostgreSQL refuses to run as root: run as root, the servers run as the OS user
 * `postgres` (runuser), which owns their folders.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
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
}

function postgresServer(dir: string, port: number): PostgresServer {
  const log = path.join(dir, '..', `${path.basename(dir)}.log`);
  return {
    port,
    dir,
    url: (user, database) => urlOf(port, user, database),
    start() {
      run(path.join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k '' -c listen_addresses=127.0.0.1`, 'start'], { quiet: true });
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
