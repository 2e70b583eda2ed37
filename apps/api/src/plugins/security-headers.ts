import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { isLocalHost, requestHost } from '../lib/host';

/**
 * Security headers on every response, the set @fastify/helmet sends, worked out once at start and
 * written by one hook (helmet's per-request work cost a fifth of the API's CPU per hold in
 * `npm run bench`). The back office's Content-Security-Policy allows scripts from its own origin
 * only — no inline script, no eval — and no framing (`frame-ancestors 'none'`); styles may be
 * inline because Mantine writes its CSS variables at run time. Images may come from any https
 * origin (video thumbnails, a media bucket). reCAPTCHA, when configured, adds Google's script and
 * frame. HSTS is sent only outside localhost, where the app is reached over HTTPS. A route that
 * needs another policy (the web store's own frame-ancestors) sets its header after this hook.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const recaptcha = config.RECAPTCHA_SITE_KEY ? ' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/' : '';
  const csp = [
    "default-src 'self'",
    `script-src 'self'${recaptcha}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${recaptcha ? recaptcha.trim() : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const headers = securityHeaders(config);
  const hsts = 'max-age=31536000; includeSubDomains';
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (!isLocalHost(requestHost(request).hostname)) reply.header('strict-transport-security', hsts);
    done();
  });
}
