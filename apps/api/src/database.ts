import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import { openDatabase, type MigrationExtras, type OpenDatabaseOptions } from './db/client';
import { lockDataDir } from './lib/data-dir-lock';
import { installJobs, MAIL_FORMAT, QUEUES } from './lib/jobs';
import { ensureReferenceData } from './seed/reference';

/**
 * The application's database, as its start opens it (server.ts, migrate-cli.ts; the tests and the
 * benchmarks too): db/client.ts connects and migrates, and every migration run here also installs
 * the job queue (pg-boss's schema and every queue of lib/jobs.ts, whose options count in the
 * run's fingerprint) and upserts the plans (seed/reference.ts). The e-mail jobs' format counts too:
 * a new one makes the next start run installJobs, which forgets the jobs of the old formats.
 */
export const APP_MIGRATION: MigrationExtras = {
  fingerprint: `${JSON.stringify(QUEUES)} mail format ${MAIL_FORMAT}`,
  prepare: installJobs,
  after: ensureReferenceData,
};

export const openAppDatabase = (opts: OpenDatabaseOptions) => openDatabase(opts, APP_MIGRATION);

/** Where PGlite keeps its data: DATA_DIR/pglite. */
export const pgliteDir = (config: Config) => path.join(config.dataDir, 'pglite');

/**
 * The database the configuration names: the PostgreSQL server of DATABASE_URL, else PGlite in
 * DATA_DIR, under DATA_DIR's lock (lib/data-dir-lock.ts: one process at a time, released by close).
 * `purpose` names the opener in the lock, for the message another opener gets.
 */
export async function openConfiguredDatabase(config: Config, purpose = 'the server') {
  if (config.DATABASE_URL) {
    return openAppDatabase({ url: config.DATABASE_URL, ownerUrl: config.MIGRATION_DATABASE_URL, readUrl: config.DATABASE_READ_URL, poolSize: config.DATABASE_POOL_SIZE });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const lock = lockDataDir(config.dataDir, purpose);
  try {
    const database = await openAppDatabase({ dataDir: pgliteDir(config) });
    return {
      ...database,
      async close() {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
