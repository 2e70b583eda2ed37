import type { FastifyInstance, RouteOptions } from 'fastify';
import type { PermissionSetTitle } from '@tourdesk/contracts';

/**
 * What a route needs, declared in its route options as `config: { access }`.
 * Every /api/ route must declare it; a route without one stops the server from starting.
 */
export type RouteAccess =
  | { public: true; reason: string }
  | { permissions: PermissionSetTitle[]; features?: string[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalog: RouteEntry[];
  }
}

export const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

/** Collects every route as it is registered and refuses to start if an /api/ route declares nothing. */
export function registerAccessCatalog(app: FastifyInstance) {
  const seen: { method: string | string[]; url: string; options: RouteOptions }[] = [];
  app.decorate('routeCatalog', [] as RouteEntry[]);
  app.addHook('onRoute', (options) => {
    seen.push({ method: options.method, url: options.url, options });
  });
  app.addHook('onReady', async () => {
    const catalog: RouteEntry[] = seen.flatMap(({ method, url, options }) =>
      (Array.isArray(method) ? method : [method]).map((m) => ({
        method: m,
        url,
        access: (options.config as { access?: RouteAccess } | undefined)?.access,
      })),
    );
    app.routeCatalog.push(...catalog);
    const undeclared = catalog.filter((r) => isApiPath(r.url) && !r.access);
    if (undeclared.length > 0) {
      throw new Error(
        `Routes without an access declaration: ${undeclared.map((r) => `${r.method} ${r.url}`).join(', ')}`,
      );
    }
  });
}

/** Marks every route registered inside `scope` public (used for plugin-owned routes like the docs UI). */
export function markScopePublic(scope: FastifyInstance, reason: string) {
  scope.addHook('onRoute', (options) => {
    options.config = { ...(options.config ?? {}), access: { public: true, reason } } as typeof options.config;
  });
}
