import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api/vitest.config.ts', 'apps/api/vitest.isolated.config.ts', 'apps/web', 'apps/store'],
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine, leaving a core idle
    // while a worker waits on PGlite or the PostgreSQL server; two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The forks pool's worker process runs file after file instead of one process per file: each
    // project says whether its files also share the loaded modules (`isolate`; the API's do, see
    // apps/api/vitest.config.ts) or get a fresh copy of them each (contracts, api-isolated). The web
    // and store tests (jsdom) run in the threads pool, a new thread per file as before (their pages'
    // tests failed in a reused process), after the others (`sequence.groupOrder`: never more than
    // maxWorkers at once).
    poolOptions: { forks: { isolate: false } },
  },
});
