import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { isLocalHost, requestHost } from '../lib/host';

/**
 * Security headers on every response (@fastify/helmet). The back office's Content-Security-Policy
 * allows scripts from its own origin only — no inline script, no eval — and no framing
 * (`frame-ancestors 'none'`); styles may be inline because Mantine writes its CSS variables at run
 * time. Images may come from any https origin (video thumbnails, a media bucket). reCAPTCHA, when
 * configured, adds Google's script and frame. HSTS is sent only outside localhost, where the app
 * is reached over HTTPS. Routes that need another policy (the API documentation, and the web
 * store's own frame-ancestors) set theirs.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const recaptcha = config.RECAPTCHA_SITE_KEY ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'] : [];
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...recaptcha],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: recaptcha.length ? recaptcha : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Sent below, outside localhost only.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (!isLocalHost(requestHost(request).hostname)) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
