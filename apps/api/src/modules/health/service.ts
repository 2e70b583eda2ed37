import { performance } from 'node:perf_hooks';
import type { THealth, THealthLive, THealthReady } from '@tourdesk/contracts';
import type { Database } from '../../db/client';
import { pendingCount, serverVersion } from './queries';
import pkg from '../../../package.json' with { type: 'json' };

const round = (ms: number) => Math.round(ms * 100) / 100;

export async function checkHealth(database: Database): Promise<THealth> {
  const started = performance.now();
  let version: string | null = null;
  let ok = true;
  try {
    version = await serverVersion(database);
  } catch {
    ok = false;
  }
  return {
    status: ok ? 'ok' : 'degraded',
    database: {
      ok,
      engine: database.engine,
      version,
      latency_ms: ok ? round(performance.now() - started) : null,
    },
    uptime_s: Math.round(process.uptime()),
    version: pkg.version,
  };
}

/** The process runs: nothing else is asked (a database outage must not get the process restarted). */
export function checkLive(): THealthLive {
  return { status: 'ok', uptime_s: Math.round(process.uptime()), version: pkg.version };
}

/**
 * Readiness: the database answers, it has every migration of this version, and the process is not
 * shutting down. Migrations once found current stay current for this process (a later migration run
 * is of a newer version, whose journal includes this one's), so only the first ready probes compare.
 */
export function createReadiness(database: Database, shuttingDown: () => boolean) {
  let migrationsCurrent = false;
  return async function checkReady(): Promise<THealthReady> {
    const started = performance.now();
    let dbOk = true;
    let latency: number | null = null;
    let pending: number | null = null;
    try {
      await serverVersion(database);
      latency = round(performance.now() - started);
      pending = migrationsCurrent ? 0 : await pendingCount(database);
      if (pending === 0) migrationsCurrent = true;
    } catch {
      dbOk = false;
      latency = null;
    }
    const closing = shuttingDown();
    const ready = dbOk && pending === 0 && !closing;
    return {
      status: ready ? 'ready' : 'not_ready',
      database: { ok: dbOk, engine: database.engine, latency_ms: latency },
      migrations: { ok: pending === 0, pending },
      shutting_down: closing,
    };
  };
}
