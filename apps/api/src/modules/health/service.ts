import { performance } from 'node:perf_hooks';
import type { THealth } from '@tourdesk/contracts';
import type { Database } from '../../db/client';
import { serverVersion } from './queries';
import pkg from '../../../package.json' with { type: 'json' };

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
      latency_ms: ok ? Math.round((performance.now() - started) * 100) / 100 : null,
    },
    uptime_s: Math.round(process.uptime()),
    version: pkg.version,
  };
}
