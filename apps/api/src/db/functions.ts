import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The current definition of every database function, trigger function and view of the capacity
 * engine, and of the roles' privileges, one readable file per area in src/db/functions (tenancy,
 * slots, pricing, carts, privileges). The versioned migrations in apps/api/drizzle make the tables,
 * constraints and triggers and keep the history; these files are applied after them at every
 * migration run, in name order, in one transaction (src/db/migrate.ts; CREATE OR REPLACE, GRANT:
 * applying them again changes nothing). A change to a function's arguments or
 * result type, or a view's columns other than at the end, needs a versioned migration that drops
 * the old one first.
 * This module runs from src/db/ (tsx, vitest) or bundled into dist/server.js.
 */
export const FUNCTIONS_DIR = [new URL('./functions', import.meta.url), new URL('../src/db/functions', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((dir) => existsSync(path.join(dir, '01-tenancy.sql'))) as string;

/** The definitions as one script: every file in name order (the runner wraps it in a transaction). */
export function definitionsScript(dir = FUNCTIONS_DIR) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return files.map((f) => `-- ${f}\n${readFileSync(path.join(dir, f), 'utf8')}`).join('\n');
}
