import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../src/lib/tracing';
import { createTestApp, type TestApp } from './harness';

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a request's spans reach an OTLP receiver (here a tiny HTTP
 * server that keeps what is posted to /v1/traces): the HTTP server span, Fastify's route span with
 * the route's pattern, and on a PostgreSQL server the queries.
 */
interface OtlpSpan {
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
const received: OtlpSpan[] = [];
let receiver: Server;
let tracing: Tracing;
let t: TestApp;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const data = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of data.resourceSpans) for (const ss of rs.scopeSpans) received.push(...ss.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  tracing = await startTracing();
  t = await createTestApp({ tracing: tracing.fastifyPlugin });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
  await tracing?.shutdown();
  await new Promise((resolve) => receiver?.close(resolve));
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
});

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? String(v.intValue) : undefined);
};

describe('tracing', () => {
  it("sends a request's spans to the OTLP endpoint", async () => {
    const { port } = t.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/api/health/ready/`);
    expect(res.status).toBe(200);
    const deadline = Date.now() + 10_000;
    const server = () => received.find((s) => s.kind === 2 && (attr(s, 'http.target') ?? attr(s, 'url.path')) === '/api/health/ready/');
    while (!server() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(server(), JSON.stringify(received.map((s) => s.name))).toBeDefined();
    // Fastify's span names the route's pattern.
    expect(received.some((s) => attr(s, 'http.route') === '/api/health/ready/')).toBe(true);
    if (t.database.engine === 'postgres') expect(received.some((s) => attr(s, 'db.system') === 'postgresql' || attr(s, 'db.system.name') === 'postgresql')).toBe(true);
  });
});
