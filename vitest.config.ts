import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api/vitest.config.ts', 'apps/api/vitest.isolated.config.ts', 'apps/web', 'apps/store'],
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine, leaving a core idle
    // while a worker waits on PGlite or the PostgreSQL server; two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker process runs file after file of one project instead of one process per file: each
    // project says whether its files also share the loaded modules (`isolate`; the API's do, see
    // apps/api/vitest.config.ts) or get a fresh copy of them each (the web, store and contracts
    // tests, and api-isolated).
    poolOptions: { forks: { isolate: false } },
  },
});
