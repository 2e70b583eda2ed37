import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openConfiguredDatabase } from './database';
import { DataDirLockedError } from './lib/data-dir-lock';
import { tenantOrigin } from './lib/host';
import { storageFor } from './lib/storage';
import { DEMO, seedDemo } from './seed/demo';
import { PARTNER_DEMO } from './seed/demo-partners';

/** The default web build location, relative to this file in src/ or dist/. */
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  const config = readConfig();
  config.WEB_DIST_DIR ??= DEFAULT_WEB_DIST;
  // Tracing only when an OTLP endpoint is set: its packages are not even loaded otherwise.
  const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? await (await import('./lib/tracing')).startTracing() : undefined;

  const database = await openConfiguredDatabase(config);
  // The embedded database always migrates at start; a server's migrations are `npm run migrate`
  // (MIGRATE_ON_START, on by default outside production, runs them here too).
  if (database.engine === 'pglite' || config.MIGRATE_ON_START) {
    await database.migrate();
  } else {
    const pending = await database.pending();
    if (pending.length > 0) {
      console.error(`The database lacks ${pending.length} migration(s) of this version (${pending.join(', ')}). Run npm run migrate first.`);
      process.exit(1);
    }
  }
  const seeded = config.SEED_DEMO ? await seedDemo(database.db, storageFor(config)) : false;

  const app = await buildApp({ config, database, tracing: tracing?.fastifyPlugin });

  // Recurring work (the expiry sweep, the selling horizon, old idempotency keys) and e-mail are
  // jobs of the durable queue, started by buildApp (lib/jobs.ts, modules/jobs/workers.ts).

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // A load balancer first sees the process not ready (503 at /api/health/ready) while it still
    // serves, for SHUTDOWN_READY_GRACE_MS; then the listener closes and requests and jobs drain.
    // An interrupt at a terminal (SIGINT) skips the grace.
    app.lifecycle.shuttingDown = true;
    const grace = signal === 'SIGTERM' ? config.SHUTDOWN_READY_GRACE_MS : 0;
    startWatchdog(grace + config.SHUTDOWN_TIMEOUT_MS + 2_000);
    if (grace > 0) {
      app.log.info({ signal, grace_ms: grace }, 'shutting down: not ready, still serving for the grace period');
      await new Promise((r) => setTimeout(r, grace));
    }
    app.log.info({ signal }, 'shutting down: draining requests and running jobs');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // Node closes idle keep-alive connections once, when closing starts; a connection whose
    // request was still running becomes idle later and would hold the close open until its
    // keep-alive timeout. Sweep idle connections until every request has drained.
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      await app.close();
      clearInterval(sweeper);
      await database.close();
      await tracing?.shutdown().catch((error: unknown) => app.log.warn({ err: error }, 'the last spans could not be sent'));
      app.log.info('shutdown complete: server and database closed');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  const origin = config.publicUrl.origin;
  const demoOrigin = tenantOrigin(config, DEMO.subdomain);
  const store = database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL server (DATABASE_URL)';
  process.stdout.write(
    [
      '',
      `  Tourdesk is running at ${origin}`,
      `  Sign in:            ${origin}/auth/login`,
      `  Demo sign-in:       ${DEMO.email} / ${DEMO.password}  (organisation ${demoOrigin}${seeded ? ', created now' : ''})`,
      `  Demo reseller:      ${PARTNER_DEMO.email} / ${PARTNER_DEMO.password}  (organisation ${tenantOrigin(config, PARTNER_DEMO.subdomain)}, partner of the demo)`,
      `  Demo web store:     ${demoOrigin}/s/kayak/`,
      `  API docs:           ${origin}/api/docs/`,
      `  Database:           ${store}`,
      '',
      '',
    ].join('\n'),
  );
}

/**
 * Stopping always stops: if the process is still alive this long after a stop began, a thread of
 * its own kills it. The drain's own timeout (SHUTDOWN_TIMEOUT_MS) ends it cleanly first; this is for
 * a main thread that can no longer run a timer (blocked in a synchronous call).
 */
function startWatchdog(ms: number) {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);`,
    { eval: true, workerData: { pid: process.pid, ms } },
  );
  worker.unref();
}

main().catch((error) => {
  // Another process on this DATA_DIR: its message says which and what to do.
  console.error(error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
