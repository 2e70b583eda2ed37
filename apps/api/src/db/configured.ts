import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { openDatabase } from './client';

/** The database the configuration names: the PostgreSQL server of DATABASE_URL, else PGlite in DATA_DIR. */
export async function openConfiguredDatabase(config: Config) {
  if (config.DATABASE_URL) {
    return openDatabase({ url: config.DATABASE_URL, ownerUrl: config.MIGRATION_DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return openDatabase({ dataDir: path.join(config.dataDir, 'pglite') });
}
