import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { definitionsScript } from './functions';
import { pendingMigrations, readMigrations, runMigrations, type SqlSession } from './migrate';

/**
 * The extensions every PGlite of this app loads (each must be loaded before a database that uses
 * it opens): btree_gist, for the guides' exclusion constraint (migration 0066). Every PGlite.create
 * (the app, backups and restores, the tests) passes these.
 */
export const PGLITE_EXTENSIONS = { btree_gist };
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the code sees, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** How a library that speaks SQL text with $1 parameters reaches the database (the job queue, lib/jobs.ts). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * What the application adds to every migration run, under its advisory lock, as the owner: this
 * file only connects and migrates, and the server's start supplies these (src/database.ts: the job
 * queue and the plans).
 */
export interface MigrationExtras {
  /** What else the code defines in the database, for the fingerprint of a run (the job queues). */
  fingerprint?: string;
  /** After the migrations, before the definitions (which grant on what it makes): the job queue's schema and queues. */
  prepare?: (owner: SqlExecutor) => Promise<void>;
  /** Once the schema is current: reference data (the plans). */
  after?: (owner: Db) => Promise<void>;
}

/**
 * The application pool's use now (node-postgres: its totalCount, idleCount, waitingCount). PGlite is
 * one embedded connection that serialises statements itself: size 1, busy while a statement runs,
 * and what waits for it is not seen from here (waiting 0).
 */
export interface PoolUse {
  engine: 'pglite' | 'postgres';
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  /** The application's connections: they run as the role tourdesk_server (least privilege). */
  db: Db;
  /**
   * Connections for reads that tolerate a moment's lag (the routes that use them: ARCHITECTURE.md,
   * "Topology"): a streaming replica's (DATABASE_READ_URL), else `db` itself. The
   * same role and tenancy; routes choose it explicitly (`tenantRead()`, lib/crud.ts), and a read that
   * decides a sale, a payment or an admission never does (ARCHITECTURE.md, "Topology").
   */
  read: Db;
  /** The same connections for a library that sends SQL text with $n parameters (the job queue). */
  sql: SqlExecutor;
  engine: 'pglite' | 'postgres';
  /**
   * As the owner: the versioned migrations, then the functions, views and grants, with what the
   * opener added (MigrationExtras: the job queue, then the plans), all under one advisory lock
   * (src/db/migrate.ts). Answers the migrations it applied.
   */
  migrate(options?: { lockTimeoutMs?: number }): Promise<string[]>;
  /** The migrations the code has and the database has not applied (empty: current). */
  pending(): Promise<string[]>;
  /**
   * Runs `work` in one transaction as the owner: what the application's role may not do (reading
   * the signing keys at start), and tests' own set-up.
   */
  asOwner<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  poolUse(): PoolUse;
  /**
   * Tells `listener` how long each query or transaction waited for a connection of a pool (the
   * primary's or the replica's), in seconds, connecting included: the sign of a pool too small
   * for its load. Answers the function that stops telling. PGlite has no pool: nothing is told.
   */
  onConnectionWait(listener: ConnectionWaitListener): () => void;
}

export type ConnectionWaitListener = (seconds: number, pool: 'primary' | 'read') => void;

type PoolCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * node-postgres's pool, timing each checkout of a connection: a query on the pool (`pool.query`)
 * and a transaction (`pool.connect`) both go through `connect`, which waits while every connection
 * is busy and the pool is at its maximum.
 */
class TimedPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly waited: (seconds: number) => void,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: PoolCallback): void;
  override connect(callback?: PoolCallback): Promise<pg.PoolClient> | void {
    const started = performance.now();
    const done = () => this.waited((performance.now() - started) / 1000);
    if (callback) {
      super.connect((err, client, release) => {
        if (!err) done();
        callback(err, client, release);
      });
      return;
    }
    return super.connect().then((client) => {
      done();
      return client;
    });
  }
}

/**
 * Versioned SQL migrations generated by drizzle-kit (`npm run db:generate`), in apps/api/drizzle;
 * then the current definitions of the database functions and views (src/db/functions.ts).
 * This module runs from src/db/ (tsx, vitest) or bundled into dist/server.js.
 */
export const MIGRATIONS_DIR = [new URL('../../drizzle', import.meta.url), new URL('../drizzle', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((dir) => existsSync(path.join(dir, 'meta', '_journal.json'))) as string;

/** The role the application's connections run as (migration 0028, src/db/functions/05-privileges.sql). */
export const SERVER_ROLE = 'tourdesk_server';
/** How long a migration's statement waits for a lock by default. */
const MIGRATION_LOCK_TIMEOUT_MS = 10_000;

export type OpenDatabaseOptions =
  | {
      /** The application's connections; its user needs to be (a member of) tourdesk_server or the owner. */
      url: string;
      /** The owner's URL for migrations and start-up reads; the application's URL when unset. */
      ownerUrl?: string;
      poolSize?: number;
      applicationName?: string;
      /** A streaming replica's URL for `read` (same users as `url`); `read` is `db` when unset. */
      readUrl?: string;
    }
  | { dataDir?: string; pglite?: PGlite };

/**
 * The URL with server settings added to its `options` (kept if it has some: node-postgres lets
 * the URL's values win over the pool's). No JIT compilation: every statement here is short, and
 * when a plan's cost estimate crossed jit_above_cost (a month calendar with many expired lines
 * did) compiling it took half a second for a statement that runs in one millisecond.
 */
export function withServerOptions(url: string, settings: string) {
  const parsed = new URL(url);
  const existing = parsed.searchParams.get('options');
  parsed.searchParams.set('options', existing ? `${existing} ${settings}` : settings);
  return parsed.toString();
}

/** The startup options the application's connections need when their login role does not already give them. */
const SERVER_OPTIONS = `-c jit=off -c role=${SERVER_ROLE}`;

/**
 * The URL the application's pool connects with. A login role whose defaults already make its
 * sessions run as tourdesk_server (`ALTER ROLE … SET role = tourdesk_server`, and `SET jit = off`)
 * gets its URL unchanged: that is how connections through a pooler in transaction mode are set up
 * (PgBouncer refuses the startup parameter `options`, and a server connection is shared by many
 * clients, so the settings must be the same for all: the role's). Any other gets the startup
 * options (`role=tourdesk_server`, `jit=off`). Asked on one connection at start, again for up to
 * `waitMs` while the server does not answer (PgBouncer up before its primary, a failover): guessing
 * would be wrong both ways (the options behind PgBouncer refuse every connection for the process's
 * life), so a database that never answers stops the start with its error.
 */
export async function serverUrlFor(url: string, waitMs = 30_000): Promise<string> {
  const until = Date.now() + waitMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 4_000)) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ current_user: string }>('select current_user');
      return rows[0]?.current_user === SERVER_ROLE ? url : withServerOptions(url, SERVER_OPTIONS);
    } catch (error) {
      // A server that answered with a refusal (a wrong password, no such database) stays refused;
      // one starting or shutting down (class 57) or unreachable (no SQLSTATE, class 08) may come.
      const code = (error as { code?: unknown }).code;
      const answered = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(57|08)/.test(code);
      if (answered || Date.now() + delay > until) throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * A connection that is lost must not crash the process: the server restarted (its backends are told
 * 57P01 "terminating connection due to administrator command"), PgBouncer restarted, the network
 * dropped. An idle client's error goes to the pool's 'error' event; a client taken from the pool
 * (in a transaction, between two statements: waiting for Stripe, say) emits 'error' on itself, which
 * pg-pool no longer listens to once it is taken, and an 'error' event without a listener throws in
 * Node: every process on the server died at once (found by `npm run chaos`). With a listener, the
 * statement in flight and the next one fail with the error, the transaction rolls back, the pool
 * drops the client when it is released, and the request answers as any failed statement does.
 */
function survivesLostConnections<P extends pg.Pool>(pool: P): P {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

const migrations = () => readMigrations(MIGRATIONS_DIR);
/** What the code defines besides migrations: the definitions and grants, and the extras' (the job queues; see MigrateOptions). */
const fingerprintOf = (extras: MigrationExtras) => createHash('sha256').update(definitionsScript()).update(extras.fingerprint ?? '').digest('hex');

/**
 * Connects to the database (and migrates it when asked). `extras` is what the application adds to
 * a migration run (src/database.ts); a connection that never migrates needs none.
 */
export async function openDatabase(opts: OpenDatabaseOptions, extras: MigrationExtras = {}): Promise<Database> {
  const { prepare, after } = extras;
  const fingerprint = () => fingerprintOf(extras);
  if ('url' in opts) {
    const waitListeners = new Set<ConnectionWaitListener>();
    const tell = (pool: 'primary' | 'read') => (seconds: number) => {
      for (const listener of waitListeners) listener(seconds, pool);
    };
    const pool = survivesLostConnections(
      new TimedPool(
        {
          // Every connection starts as the application's role.
          connectionString: await serverUrlFor(opts.url),
          max: opts.poolSize ?? 10,
          application_name: opts.applicationName ?? 'tourdesk-api',
        },
        tell('primary'),
      ),
    );
    const readPool = opts.readUrl
      ? survivesLostConnections(new TimedPool({ connectionString: await serverUrlFor(opts.readUrl), max: opts.poolSize ?? 10, application_name: `${opts.applicationName ?? 'tourdesk-api'}-read` }, tell('read')))
      : undefined;
    let ownerPool: pg.Pool | undefined;
    const owner = () => {
      ownerPool ??= survivesLostConnections(new pg.Pool({ connectionString: withServerOptions(opts.ownerUrl ?? opts.url, '-c jit=off'), max: 2, application_name: 'tourdesk-owner' }));
      return ownerPool;
    };
    const session = (client: pg.PoolClient): SqlSession => ({
      // pg types rows as QueryResultRow, which a caller's R need not extend: the migrations say what they select.
      query: async <R,>(text: string, params?: unknown[]) => (await client.query(text, params)) as unknown as { rows: R[] },
      exec: async (script) => void (await client.query(script)),
    });
    const db = drizzlePg(pool, { schema }) as Db;
    const read = readPool ? (drizzlePg(readPool, { schema }) as Db) : db;
    const executor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
      // Without parameters, the simple protocol: a script of several statements (pg-boss's maintenance).
      executeSql: async (text, values) => (values && values.length > 0 ? client.query(text, values) : client.query(text)),
    });
    return {
      db,
      read,
      sql: executor(pool),
      engine: 'postgres',
      async migrate(options) {
        const client = await owner().connect();
        try {
          return await runMigrations(session(client), {
            migrations: migrations(),
            fingerprint: fingerprint(),
            prepare: prepare && (() => prepare(executor(client))),
            definitions: definitionsScript(),
            lockTimeoutMs: options?.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS,
            after: after && (() => after(drizzlePg(client, { schema }) as Db)),
          });
        } finally {
          client.release();
        }
      },
      async pending() {
        // On the owner's connection: before migration 0028 the application's role does not exist.
        const client = await owner().connect();
        try {
          return await pendingMigrations(session(client), migrations(), fingerprint());
        } finally {
          client.release();
        }
      },
      asOwner: (work) => (drizzlePg(owner(), { schema }) as Db).transaction((tx) => work(tx as Db)),
      async close() {
        await Promise.all([pool.end(), readPool?.end(), ownerPool?.end()]);
      },
      poolUse: () => ({ engine: 'postgres', max: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      onConnectionWait(listener) {
        waitListeners.add(listener);
        return () => void waitListeners.delete(listener);
      },
    };
  }
  // PGlite: one connection, whose session user is its superuser. The application's statements run
  // as tourdesk_server (SET ROLE once the role exists); the owner's work resets the role.
  const client = opts.pglite ?? (await PGlite.create(opts.dataDir ? { dataDir: opts.dataDir, extensions: PGLITE_EXTENSIONS } : { extensions: PGLITE_EXTENSIONS }));
  const db = drizzlePglite(client, { schema }) as Db;
  const restrict = async () => {
    const found = await client.query(`select 1 from pg_roles where rolname = $1`, [SERVER_ROLE]);
    if (found.rows.length > 0) await client.exec(`set role ${SERVER_ROLE}`);
  };
  await restrict();
  const session: SqlSession = {
    query: async <R,>(text: string, params?: unknown[]) => (await client.query<R>(text, params)) as { rows: R[] },
    exec: async (script) => void (await client.exec(script)),
  };
  const executor: SqlExecutor = {
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
  return {
    db,
    read: db,
    sql: executor,
    engine: 'pglite',
    async migrate(options) {
      await client.exec('reset role');
      try {
        return await runMigrations(session, {
          migrations: migrations(),
          fingerprint: fingerprint(),
          prepare: prepare && (() => prepare(executor)),
          definitions: definitionsScript(),
          lockTimeoutMs: options?.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS,
          after: after && (() => after(db)),
        });
      } finally {
        await restrict();
      }
    },
    // As the owner (the application's role may not read drizzle's tables), in a transaction so the
    // role's change never reaches a statement of the application on the one connection.
    pending: () =>
      client.transaction(async (tx) => {
        await tx.exec('set local role none');
        const inTx: SqlSession = {
          query: async <R,>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)) as { rows: R[] },
          exec: async (script) => void (await tx.exec(script)),
        };
        return pendingMigrations(inTx, migrations(), fingerprint());
      }),
    asOwner: (work) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local role none`);
        return work(tx as Db);
      }),
    close: () => client.close(),
    poolUse: () => ({ engine: 'pglite', max: 1, total: 1, idle: 1, waiting: 0 }),
    onConnectionWait: () => () => undefined,
  };
}

export async function databaseVersion(db: Db): Promise<string> {
  const result = (await db.execute(sql`show server_version`)) as {
    rows: { server_version: string }[];
  };
  return String(result.rows[0]?.server_version ?? '');
}
