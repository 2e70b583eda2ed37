import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import { openDatabase, type MigrationExtras, type OpenDatabaseOptions } from './db/client';
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

/** The database the configuration names: the PostgreSQL server of DATABASE_URL, else PGlite in DATA_DIR. */
export async function openConfiguredDatabase(config: Config) {
  if (config.DATABASE_URL) {
    return openAppDatabase({ url: config.DATABASE_URL, ownerUrl: config.MIGRATION_DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return openAppDatabase({ dataDir: path.join(config.dataDir, 'pglite') });
}
