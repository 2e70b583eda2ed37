/**
 * npm run chaos — the flash sale under kills (README.md, "The chaos test"; ARCHITECTURE.md,
 * "Topology"): the topology of `npm run cluster` on free ports in a temporary folder, a local Stripe
 * and an SMTP sink, then CHAOS_SHOPPERS shoppers (2,000) buying a CHAOS_SEATS-seat departure (500)
 * through HAProxy, CHAOS_CONCURRENCY at once (64), CHAOS_ONLINE of them paying online (0.2), while
 * API processes are SIGKILLed and restarted (CHAOS_API_KILLS, 3), PgBouncer is restarted
 * (CHAOS_PGBOUNCER_RESTARTS, 2) and the primary is restarted (CHAOS_PRIMARY_RESTARTS, 1). Prints the
 * figures and the invariants broken; exits 1 when one is. Builds first when the sources changed
 * (CLUSTER_SKIP_BUILD=1: use the build as it is). CHAOS_SEED draws another run (default: the time);
 * CHAOS_GRACE_SECONDS (300) is how long the queue may take to drain after the sale (at full size
 * the confirmations of ~400 orders, each with its tickets PDF, take a few minutes on two cores).
 */
import path from 'node:path';
import { runChaos } from './chaos-run';
import { buildIfChanged, topologyTools } from './topology';

const root = path.resolve(import.meta.dirname, '..');
const env = process.env;
const int = (name: string, fallback: number, min = 0) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min}`);
  return value;
};

async function main() {
  const missing = Object.entries(topologyTools()).filter(([, ok]) => !ok).map(([tool]) => tool);
  if (missing.length) throw new Error(`not installed: ${missing.join(', ')} (apt-get install postgresql-15 pgbouncer haproxy)`);
  if (env.CLUSTER_SKIP_BUILD !== '1') buildIfChanged(root);
  const seed = int('CHAOS_SEED', Date.now() % 2 ** 31);
  const online = Number(env.CHAOS_ONLINE ?? 0.2);
  if (!(online >= 0 && online <= 1)) throw new Error('CHAOS_ONLINE must be a share between 0 and 1');
  const report = await runChaos({
    root,
    shoppers: int('CHAOS_SHOPPERS', 2000, 1),
    seats: int('CHAOS_SEATS', 500, 1),
    concurrency: int('CHAOS_CONCURRENCY', 64, 1),
    online,
    kills: { api: int('CHAOS_API_KILLS', 3), pgbouncer: int('CHAOS_PGBOUNCER_RESTARTS', 2), primary: int('CHAOS_PRIMARY_RESTARTS', 1) },
    graceSeconds: int('CHAOS_GRACE_SECONDS', 300),
    seed,
    say: (line) => process.stdout.write(`chaos: ${line}\n`),
  });
  process.stdout.write(`\nchaos (seed ${seed}):\n`);
  const width = Math.max(...report.figures.map(([k]) => k.length));
  for (const [k, v] of report.figures) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
  for (const line of report.violations.slice(0, 50)) process.stdout.write(`  BROKEN: ${line}\n`);
  if (report.violations.length > 50) process.stdout.write(`  … and ${report.violations.length - 50} more\n`);
  process.exitCode = report.violations.length ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
