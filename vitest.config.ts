import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api', 'apps/web', 'apps/store'],
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine, leaving a core idle
    // while a worker waits on PGlite or the PostgreSQL server; two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
