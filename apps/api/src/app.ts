import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyPluginCallback } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerAccessCatalog } from './lib/access';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerJsonBody } from './plugins/json-body';
import { AppError, registerErrorHandling, sendError } from './lib/errors';
import { logOutput } from './lib/log-output';
import { logSerializers, SecretPaths } from './lib/secret-paths';
import { startJobs, type Jobs } from './lib/jobs';
import { createSealer } from './lib/sealed';
import { jobRoutes } from './modules/jobs/routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { planRoutes } from './modules/plans/routes';
import { resaleRoutes } from './modules/resales/routes';
import { accountingRoutes } from './modules/accounting/routes';
import { partnerRoutes } from './modules/partners/routes';
import { webStoreRoutes } from './modules/web-store/routes';
import { waitlistRoutes } from './modules/waitlist/routes';
import { registerPartnerApis } from './modules/octo/routes';
import { registerPayments } from './modules/payments/routes';
import { DEFAULT_STORE_DIST, registerWebStorePages } from './modules/web-store/pages';
import { startWorkers } from './modules/jobs/workers';
import { UNSAFE_TEXT_DETAIL, unsafeText } from '@tourdesk/contracts';
import { countedMailer, createMailer, type Mailer } from './lib/mailer';
import { appInfoRoutes } from './modules/app-info/routes';
import { registerGuard } from './modules/auth/guard';
import { loadSigningKeys } from './modules/auth/keys';
import { forgetPrincipalsAfterWrites } from './modules/auth/principal';
import { authRoutes } from './modules/auth/routes';
import { healthRoutes } from './modules/health/routes';
import { metricsRoutes } from './modules/metrics/routes';
import { dbConnectionWait, httpDuration, httpRequests, setMetricsSources } from './lib/metrics';
import { oidcRoutes } from './modules/oidc/routes';
import { roleRoutes } from './modules/roles/routes';
import { userRoutes } from './modules/users/routes';
import { registerPricingRates } from './modules/catalog/routes';
import { registerCatalogResources } from './modules/catalog/routes';
import { experienceRoutes } from './modules/experiences/routes';
import { availabilityRoutes } from './modules/availability/routes';
import { createHoldQueue, type HoldQueue } from './modules/availability/holds';
import { bookingRoutes } from './modules/orders/booking-routes';
import { checkInRoutes } from './modules/check-in/routes';
import { orderRoutes } from './modules/orders/routes';
import { manifestRoutes } from './modules/manifests/routes';
import { organizationRoutes } from './modules/organization/routes';
import { registerImages } from './modules/media/routes';
import { registerStores } from './modules/stores/routes';
import { registerQrCodes } from './modules/qr-codes/routes';
import { registerPromoCodes } from './modules/promo-codes/routes';
import { giftVoucherRoutes } from './modules/gift-vouchers/routes';
import { registerVideos } from './modules/media/routes';
import { storageFor } from './lib/storage';
import { systemNotificationRoutes } from './modules/system-notifications/routes';
import { dashboardRoutes } from './modules/dashboard/routes';
import { helpVideoRoutes } from './modules/help-videos/routes';
import { locationRoutes } from './modules/locations/routes';
import { calendarFeedRoutes } from './modules/calendar-feeds/routes';
import { guideRoutes } from './modules/guides/routes';
import { poolRoutes } from './modules/pools/routes';
import { registerOpenApi } from './plugins/openapi';
import { registerWeb } from './plugins/web';
import { registerRateLimit } from './plugins/rate-limit';
import { registerStoreGuards } from './modules/web-store/limits-routes';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    /** New holds on their way to the database (gathered per slot: modules/availability/holds.ts). */
    holds: HoldQueue;
    /** The durable job queue (lib/jobs.ts): e-mail and the recurring work. */
    jobs: Jobs;
    /** Set by server.ts's stop: /api/health/ready answers 503 from then on. */
    lifecycle: { shuttingDown: boolean };
  }
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Tests pass their own to read what was sent; by default SMTP or the log (see lib/mailer.ts). */
  mailer?: Mailer;
  /** Where log lines go (stdout by default); tests read them. */
  logStream?: { write(line: string): void };
  /** OpenTelemetry's Fastify plugin when tracing is on (lib/tracing.ts): registered before any route. */
  tracing?: FastifyPluginCallback;
}

/** Builds the whole HTTP application without listening: `server.ts` listens, tests `inject()`. */
export async function buildApp({ config, database, mailer, logStream, tracing }: BuildAppOptions): Promise<FastifyInstance> {
  // Every route whose path names a secret (`:token`, `:uid`…), with the e-mailed links: no log line writes their values.
  const secretPaths = new SecretPaths();
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      stream: logStream ?? logOutput(),
      serializers: logSerializers(secretPaths),
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.token'],
        censor: '[redacted]',
      },
    },
    // Honour an upstream request id (load balancer) when it is safe, otherwise mint one.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    return503OnClosing: true,
    // The router's own refusals (a path that is not a valid URL, a path parameter over 100
    // characters) answer in the envelope like every other error.
    frameworkErrors: (error, _request, reply) =>
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? sendError(reply, 414, [{ code: 'uri_too_long', detail: 'A part of this address is too long.', attr: null }])
        : sendError(reply, 400, [{ code: 'invalid', detail: 'This address is not a valid URL.', attr: null }]),
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();

  if (tracing) await app.register(tracing);
  app.addHook('onRoute', (route) => {
    secretPaths.add(route.url);
    // Every log line of a request names its route's pattern (beside fastify's reqId).
    const pattern = route.url;
    route.childLoggerFactory = (logger, bindings, opts) => logger.child({ ...bindings, route: pattern }, opts);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('lifecycle', { shuttingDown: false });
  app.decorate('mailer', countedMailer(mailer ?? createMailer(config, app.log)));
  app.decorate('signingKeys', await loadSigningKeys(database, config.jwtSecrets));
  app.decorate('storage', storageFor(config));
  app.decorate('holds', createHoldQueue(database.db, { maxBatch: config.HOLD_BATCH_MAX }));
  // Running jobs get half of the stop's time to finish (the drain of requests runs beside it).
  // Secrets in job data (an e-mail's text and links, a booking page's secret) are sealed with the signing key.
  const sealer = createSealer(app.signingKeys.current, (kid) => app.signingKeys.byId(kid));
  app.decorate('jobs', await startJobs(database.sql, app.log, { stopTimeoutMs: Math.max(100, Math.min(30_000, config.SHUTDOWN_TIMEOUT_MS / 2)), sealer }));
  // The job queue stops first (its workers finish their job), then the mailer they use.
  app.addHook('onClose', async () => {
    await app.jobs.stop();
    app.mailer.close();
  });

  registerAccessCatalog(app);
  registerErrorHandling(app);
  // JSON bodies nested deeper than 64 levels are refused before anything walks them.
  registerJsonBody(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Request rate, latency and status by route pattern (lib/metrics.ts; /metrics serves them).
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
  // Strings no table can hold (NUL, unpaired surrogates) are refused once, here, for every route.
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const at = unsafeText(part);
      if (at !== null) throw new AppError('invalid', UNSAFE_TEXT_DETAIL, at || null);
    }
  });

  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyCookie);
  registerSecurityHeaders(app, config);
  registerGuard(app);
  // Once the guard knows the caller, each later log line of the request names its organisation.
  app.addHook('preHandler', async (request, reply) => {
    const accountId = request.principal?.accountId;
    if (accountId) reply.log = request.log = request.log.child({ org: accountId });
  });
  await registerOpenApi(app);
  // Rate limits shared by every process (Redis or the database), and the web store's guards on them.
  await registerRateLimit(app, config, database.db);
  registerStoreGuards(app);

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  const withdrawMetrics = setMetricsSources({ pool: () => database.poolUse(), jobCounts: () => app.jobs.counts() });
  const stopWaits = database.onConnectionWait((seconds, pool) => dbConnectionWait.observe({ pool }, seconds));
  app.addHook('onClose', async () => {
    withdrawMetrics();
    stopWaits();
  });
  await app.register(systemNotificationRoutes);
  await app.register(dashboardRoutes);
  await app.register(helpVideoRoutes);
  await app.register(locationRoutes);
  await app.register(async (identity) => {
    // A write here can end a session or change a role: callers are loaded afresh after it.
    forgetPrincipalsAfterWrites(identity);
    await identity.register(authRoutes);
    await identity.register(oidcRoutes);
    await identity.register(userRoutes);
    await identity.register(roleRoutes);
    // The organisation's time zone is part of the cached caller too.
    await identity.register(organizationRoutes);
  });
  await app.register(appInfoRoutes);
  await app.register(experienceRoutes);
  await app.register(availabilityRoutes);
  await app.register(orderRoutes);
  await app.register(bookingRoutes);
  await app.register(manifestRoutes);
  await app.register(checkInRoutes);
  await app.register(calendarFeedRoutes);
  await app.register(guideRoutes);
  await app.register(poolRoutes);
  await app.register(async (scope) => {
    registerCatalogResources(scope);
    registerPricingRates(scope);
    registerImages(scope);
    registerVideos(scope);
    registerStores(scope);
    registerQrCodes(scope);
    registerPromoCodes(scope);
  });

  await app.register(giftVoucherRoutes);
  await app.register(jobRoutes);
  await app.register(webhookRoutes);
  await app.register(planRoutes);
  await app.register(resaleRoutes);
  await app.register(accountingRoutes);
  await app.register(partnerRoutes);
  await app.register(webStoreRoutes);
  await app.register(waitlistRoutes);
  // A partner's API key: OCTO at /octo/v1 and the public booking API at /api/public/.
  await registerPartnerApis(app);
  // Not in a plugin of its own: its decoration (onlinePayments) is the orders routes' and the workers' too.
  await registerPayments(app);

  await registerWebStorePages(app, config.STORE_DIST_DIR ?? DEFAULT_STORE_DIST);
  await registerWeb(app, config.WEB_DIST_DIR);
  await startWorkers(app);
  return app;
}
