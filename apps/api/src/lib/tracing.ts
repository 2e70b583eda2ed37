import { createRequire } from 'node:module';
import type { FastifyPluginCallback } from 'fastify';

/**
 * OpenTelemetry tracing, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (server.ts imports this
 * file then, and only then; every OpenTelemetry package is imported here, lazily, so a process
 * without it loads none of them). Spans go by OTLP over HTTP (JSON) to the endpoint's /v1/traces,
 * with the standard OTEL_* variables (OTEL_SERVICE_NAME, default tourdesk-api; OTEL_BSP_* for the
 * batch's delay). Instrumented: incoming and outgoing HTTP (the server span of each request),
 * Fastify's routes and hooks (@fastify/otel, registered by buildApp), and node-postgres's queries
 * made within a traced request (the job queue's polling, with no parent, is left out).
 */
export interface Tracing {
  /** The Fastify plugin that makes a span per route, hook and handler (buildApp registers it first). */
  fastifyPlugin: FastifyPluginCallback;
  /**
   * Sends the spans still batched, then stops (server.ts's stop): the instrumentations take their
   * patches off http and pg, and OpenTelemetry's global tracer, context and propagator are
   * unregistered, so the process is as it was before startTracing (a test's process goes on).
   */
  shutdown(): Promise<void>;
}

export async function startTracing(): Promise<Tracing> {
  const serviceName = process.env.OTEL_SERVICE_NAME;
  process.env.OTEL_SERVICE_NAME ??= 'tourdesk-api';
  const [api, { NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { PgInstrumentation }, fastifyOtel] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@fastify/otel'),
  ]);
  const fastify = new fastifyOtel.FastifyOtelInstrumentation({ registerOnInitialization: false });
  const instrumentations = [new HttpInstrumentation(), new PgInstrumentation({ requireParentSpan: true }), fastify];
  const sdk = new NodeSDK({ traceExporter: new OTLPTraceExporter(), instrumentations });
  sdk.start();
  // The instrumentations patch a module when it is required after the start; http's server and pg's
  // client are patched on their prototypes, so requiring them once now also reaches the copies the
  // application imported before (the bundle's imports come first).
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');
  require('pg');
  return {
    fastifyPlugin: fastify.plugin() as FastifyPluginCallback,
    async shutdown() {
      await sdk.shutdown();
      for (const instrumentation of instrumentations) instrumentation.disable();
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
      if (serviceName === undefined) delete process.env.OTEL_SERVICE_NAME;
    },
  };
}
