import { ConfigError, loadConfig } from './config';
import { openConfiguredDatabase } from './database';

/**
 * `npm run migrate`: applies the migrations, function definitions, grants and reference data as
 * the owner (MIGRATION_DATABASE_URL, else DATABASE_URL; PGlite in DATA_DIR without either), then
 * exits. Safe to run from several machines at once (src/db/migrate.ts).
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openConfiguredDatabase(config, 'npm run migrate');
  try {
    const applied = await database.migrate();
    process.stdout.write(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'The database is up to date.\n');
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
