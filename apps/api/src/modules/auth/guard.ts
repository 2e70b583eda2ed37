import type { FastifyInstance, FastifyRequest } from 'fastify';
import { holdsFeatures } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './cookies';
import { authenticate, holdsPermissionSets } from './principal';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated writes: a write must come from a page of the same host.
 * Browsers send Origin on every cross-origin write (and Chromium on same-origin ones too).
 * A write carrying our cookies with no Origin or Referer at all is refused.
 */
export function checkOrigin(request: FastifyRequest) {
  if (SAFE_METHODS.has(request.method)) return;
  const source = request.headers.origin ?? request.headers.referer;
  const host = request.headers.host;
  if (source) {
    let sourceHost: string | null = null;
    try {
      sourceHost = new URL(source).host;
    } catch {
      sourceHost = null;
    }
    if (sourceHost !== host) throw new AppError('permission_denied', 'Cross-site request refused (CSRF check failed).');
    return;
  }
  const cookies = request.cookies;
  if (cookies[ACCESS_COOKIE] || cookies[REFRESH_COOKIE]) {
    throw new AppError('permission_denied', 'Cross-site request refused (CSRF check failed): no Origin header.');
  }
}

/**
 * The one hook that enforces every route's declaration: public routes pass; the others need a
 * live session (401), the declared permission sets (403) and the declared plan features (403).
 */
export function registerGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    checkOrigin(request);
    const access = request.routeOptions.config?.access as RouteAccess | undefined;
    if (!access || 'public' in access) return;
    const principal = await authenticate(request);
    if (!holdsPermissionSets(principal.codenames, access.permissions)) {
      throw new AppError('permission_denied', 'You do not have permission to perform this action.');
    }
    const features = access.features ?? [];
    if (!holdsFeatures(principal.features, features)) {
      throw new AppError('plan_required', 'Your current subscription plan does not grant access to this feature!');
    }
  });
}
