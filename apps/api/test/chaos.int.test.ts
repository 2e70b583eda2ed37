import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChaos } from '../../../scripts/chaos-run';
import { topologyTools } from '../../../scripts/topology';

/**
 * `npm run chaos` at a small size (scripts/chaos-run.ts, README.md "The chaos test"): 200 shoppers
 * buy a 50-seat departure through HAProxy while an API process is SIGKILLed and started again,
 * PgBouncer is restarted and the primary is restarted, with Stripe's events delivered again and
 * twice; then nothing is oversold or lost: seats, orders, paid sessions, e-mails once, no job stuck,
 * no 500. PostgreSQL server runs only (the CI step after `npm test`, which built), where PostgreSQL
 * 15's tools, pgbouncer and haproxy are installed.
 */
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const tools = topologyTools();
const built = existsSync(path.join(root, 'apps/api/dist/server.js'));

describe.runIf(Boolean(process.env.TEST_DATABASE_URL) && tools.postgres && tools.pgbouncer && tools.haproxy && built)('npm run chaos, small', () => {
  it('sells the departure exactly once through kills and restarts, and loses nothing', async () => {
    const report = await runChaos({
      root,
      shoppers: 200,
      seats: 50,
      concurrency: 32,
      online: 0.2,
      kills: { api: 1, pgbouncer: 1, primary: 1 },
      graceSeconds: 30,
      seed: 33,
      say: () => undefined,
    });
    const figures = report.figures.map(([k, v]) => `${k}: ${v}`).join('\n');
    expect(report.violations, figures).toEqual([]);
    expect(report.facts.bookedRows + report.facts.heldLive).toBe(50);
    expect(report.facts.told.length).toBeGreaterThan(0);
    expect(report.facts.paidSessions.length).toBeGreaterThan(0);
    // Every fault was done during the sale.
    expect(figures).toContain('1 API SIGKILL, 1 PgBouncer restarts, 1 primary restarts');
  }, 300_000);
});
