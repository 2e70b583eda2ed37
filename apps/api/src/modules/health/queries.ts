import { databaseVersion, type Database } from '../../db/client';

/** The health module's only access to the database. */

/** The database server's version: one round trip, the health check's probe. */
export function serverVersion(database: Database) {
  return databaseVersion(database.db);
}

/** How many migrations (and definition changes) of this version the database lacks: 0 when current. */
export async function pendingCount(database: Database) {
  return (await database.pending()).length;
}
