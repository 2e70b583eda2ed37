/**
 * Addresses that carry a secret, and the log serializers that never write one.
 *
 * A secret travels in an address in two ways: as a route's path parameter named for what it is
 * (`/api/partner-invitations/:token/`, the e-mailed `/auth/reset-password/:uid/:token`), or as a
 * query value (`/auth/handoff?code=…`, `/auth/oidc/callback?code=…&state=…`, `?next=` holding
 * such a path). The request serializer redacts by the routes' own parameter names: every route
 * the server registers is added (an `onRoute` hook in app.ts), with the web app's e-mailed links
 * below, so a new route with `:token` is covered without a word here. An address that matched no
 * route (a 404, a path over the router's limit, a client route served as index.html) is matched
 * against the same patterns by its literal segments.
 */

/** A path parameter or query key whose value is a secret, or names whose secret it is (uid). */
export function isSecretName(name: string) {
  return (
    /^(token|uid|code|key|secret|state|password|session_id|signature)$/i.test(name) ||
    /[_-](token|secret|key|code|password)$/i.test(name) ||
    /[a-z](Token|Secret|Key|Code|Password)$/.test(name)
  );
}

/** The web app's pages that the platform e-mails, with their secrets as named parameters (apps/web/src/app/routes.tsx, pages.ts). */
export const EMAILED_LINKS = {
  activate: '/auth/activate/:uid/:token',
  resetPassword: '/auth/reset-password/:uid/:token',
  invite: '/auth/invite/:uid/:token',
  resetEmail: '/auth/reset-email/:uid/:token',
  confirmEmail: '/auth/confirm-email/:uid/:token',
  partnerInvitation: '/sales/partners/invitation/:token',
} as const;

/** A link's path from its pattern: `linkPath(EMAILED_LINKS.invite, { uid, token })`. */
export function linkPath(pattern: string, params: Record<string, string>) {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

export const REDACTED = '[redacted]';
const paramName = (segment: string) => (segment.startsWith(':') ? segment.slice(1).replace(/[(?].*$/, '') : null);

/** Route patterns whose path parameters carry secrets. */
export class SecretPaths {
  private patterns: string[][] = [];

  constructor(patterns: Iterable<string> = Object.values(EMAILED_LINKS)) {
    for (const p of patterns) this.add(p);
  }

  /** Keeps a route's pattern when one of its parameters is a secret (others are never redacted). */
  add(pattern: string) {
    const segments = pattern.split('/');
    if (!segments.some((s) => isSecretName(paramName(s) ?? ''))) return;
    if (!this.patterns.some((p) => p.join('/') === pattern)) this.patterns.push(segments);
  }

  /** The path with each secret parameter's segment redacted, by the route that matched or else by any that fits. */
  redactPath(path: string, route?: string) {
    const segments = path.split('/');
    const candidates = route && route.includes(':') ? [route.split('/'), ...this.patterns] : this.patterns;
    for (const pattern of candidates) {
      if (pattern.length !== segments.length) continue;
      const fits = pattern.every((p, i) => (paramName(p) !== null ? segments[i] !== '' : p === segments[i]));
      if (!fits) continue;
      return pattern.map((p, i) => (isSecretName(paramName(p) ?? '') ? REDACTED : segments[i])).join('/');
    }
    return path;
  }

  /** An address (path and query) with its secrets redacted: secret parameters, secret query values, and paths inside query values. */
  redactUrl(url: string, route?: string): string {
    const at = url.indexOf('?');
    const path = this.redactPath(at < 0 ? url : url.slice(0, at), route);
    if (at < 0) return path;
    const query = url
      .slice(at + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        const key = safeDecode(pair.slice(0, eq));
        if (isSecretName(key)) return `${pair.slice(0, eq)}=${REDACTED}`;
        const value = safeDecode(pair.slice(eq + 1));
        return value.startsWith('/') ? `${pair.slice(0, eq)}=${encodeURIComponent(this.redactUrl(value))}` : pair;
      })
      .join('&');
    return `${path}?${query}`;
  }

  /** Any address inside a text (an error's message or stack) redacted. */
  redactText(text: string) {
    return text.replace(/\/[^\s"'<>`]*/g, (found) => this.redactUrl(found));
  }
}

function safeDecode(text: string) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
  routeOptions?: { url?: string };
}

/**
 * The logger's serializers: Fastify's own shape of a request (method, url, host, address), its url
 * through `redactUrl()`; errors as pino writes them, with any address in their message or stack redacted.
 */
export function logSerializers(paths: SecretPaths) {
  return {
    req(req: LoggedRequest) {
      return {
        method: req.method,
        url: paths.redactUrl(req.url ?? '', req.routeOptions?.url),
        version: req.headers?.['accept-version'] as string | undefined,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      };
    },
    err(err: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
      if (!err || typeof err !== 'object') return err as never;
      // As pino's own (type, message, stack with its causes, the error's own fields), redacted.
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(err)) if (k !== 'cause') out[k] = v;
      let stack = err.stack ?? '';
      for (let cause = err.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) stack += `\ncaused by: ${cause.stack ?? cause.message}`;
      return { type: err.constructor?.name ?? 'Error', ...out, message: paths.redactText(String(err.message ?? '')), stack: paths.redactText(stack) };
    },
  };
}
