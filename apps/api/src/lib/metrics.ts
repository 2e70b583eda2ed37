import type { PoolUse } from '../db/client';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), served at /metrics (modules/metrics). One registry
 * per process, as Prometheus scrapes a process: the counters below are incremented at the one place
 * each thing happens (a hold made, an order written, an e-mail handed to SMTP, a job's failure), the
 * gauges are read when scraped (the database pool, the job queue) from the sources the running app
 * registers with `setMetricsSources()`.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'tourdesk_' });

export const httpRequests = new Counter({
  name: 'tourdesk_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'tourdesk_http_request_duration_seconds',
  help: 'Time from a request received to its answer sent, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const httpErrors = new Counter({
  name: 'tourdesk_http_errors_total',
  help: "Error answers, by status and the error envelope's code (one per error item)",
  labelNames: ['status', 'code'] as const,
  registers: [registry],
});

export const holdsMade = new Counter({
  name: 'tourdesk_holds_total',
  help: 'Seat holds (cart lines) asked for, by result: held, or refused (no seats, closed, …)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const ordersWritten = new Counter({
  name: 'tourdesk_orders_total',
  help: 'Orders written (writeOrder): every channel, the counter, the web store and the partner APIs',
  registers: [registry],
});

export const emails = new Counter({
  name: 'tourdesk_emails_total',
  help: 'E-mails handed to SMTP (or the log without SMTP_URL), by result: sent or failed (a failure is retried by its job)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'tourdesk_job_failures_total',
  help: "Job attempts whose handler threw, by queue (each is retried until its queue's retries are spent)",
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const dbConnectionWait = new Histogram({
  name: 'tourdesk_db_pool_wait_seconds',
  help: "Time a query or transaction waited for a connection of the database pool (primary or read replica), connecting included",
  labelNames: ['pool'] as const,
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** What the running app lets the scrape read: the database pool and the job queue's counts. */
export interface MetricsSources {
  pool: () => PoolUse;
  jobCounts: () => Promise<{ queue: string; state: string; count: number }[]>;
}


const registered: MetricsSources[] = [];
let sources: MetricsSources | undefined;
/**
 * The app that buildApp() made last, and not yet closed, serves its pool and queue (one app per
 * process outside tests). Answers the function that withdraws them (the app's close).
 */
export function setMetricsSources(next: MetricsSources) {
  registered.push(next);
  sources = next;
  return () => {
    registered.splice(registered.indexOf(next), 1);
    sources = registered.at(-1);
  };
}

new Gauge({
  name: 'tourdesk_db_pool_connections',
  help: "The database pool's connections, by state (busy, idle) and its maximum (max)",
  labelNames: ['engine', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    if (!sources) return;
    const p = sources.pool();
    this.set({ engine: p.engine, state: 'max' }, p.max);
    this.set({ engine: p.engine, state: 'busy' }, p.total - p.idle);
    this.set({ engine: p.engine, state: 'idle' }, p.idle);
  },
});

new Gauge({
  name: 'tourdesk_db_pool_waiting',
  help: 'Queries waiting for a free connection of the database pool now',
  labelNames: ['engine'] as const,
  registers: [registry],
  collect() {
    this.reset();
    if (!sources) return;
    const p = sources.pool();
    this.set({ engine: p.engine }, p.waiting);
  },
});

new Gauge({
  name: 'tourdesk_jobs',
  help: 'Jobs in the durable queue (pg-boss), by queue and state: created and retry are its depth; failed ones are kept 14 days',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!sources) return;
    // A database that does not answer leaves the gauge empty: the scrape still answers (readiness tells).
    const rows = await sources.jobCounts().catch(() => []);
    for (const row of rows) this.set({ queue: row.queue, state: row.state }, row.count);
  },
});
