import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildAppOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openAppDatabase } from '../src/database';
import { PGLITE_EXTENSIONS, type Database } from '../src/db/client';

export interface TestDatabase {
  database: Database;
  /** Set on a PostgreSQL server: the URL of this file's own database. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own: a clone of the template on a PostgreSQL server
 * (TEST_DATABASE_URL), or a PGlite loaded from the migrated snapshot.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject('templateDatabase');
  if (serverUrl && template) {
    const name = `tourdesk_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openAppDatabase({ url: url.toString(), poolSize: 20 });
    return {
      database,
      url: url.toString(),
      async drop() {
        await database.close().catch(() => undefined);
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const snapshot = readFileSync(inject('pgliteSnapshot'));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]), extensions: PGLITE_EXTENSIONS });
  const database = await openAppDatabase({ pglite: client });
  return { database, drop: () => database.close() };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tourdesk-data-'));
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', SEED_DEMO: 'false', DATA_DIR: dataDir, ...overrides });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** Set on a PostgreSQL server: the URL of this app's own database (for tests that need their own connections). */
  url?: string;
  close(): Promise<void>;
}

/**
 * Builds the real application on a fresh database. `configure` may add routes before the
 * app is ready (used to exercise the error handler with deliberately failing routes).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    configure?: (app: FastifyInstance) => void;
    logStream?: { write(line: string): void };
    tracing?: BuildAppOptions['tracing'];
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const app = await buildApp({ config: testConfig(options.env), database: testDb.database, logStream: options.logStream, tracing: options.tracing });
  options.configure?.(app);
  await app.ready();
  return {
    app,
    database: testDb.database,
    url: testDb.url,
    async close() {
      await app.close();
      await testDb.drop();
    },
  };
}

/** Waits until `probe` answers something truthy (the job queue and Stripe's events work in the background). */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
