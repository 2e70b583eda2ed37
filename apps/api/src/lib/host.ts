import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * Organisations live at {subdomain}.{BASE_DOMAIN}. The bare host and www serve sign-in and
 * sign-up only. Cookies are host-only, so each organisation's session stays on its own host.
 */
export interface HostInfo {
  /** The organisation's subdomain, or null on the bare (or www) host. */
  subdomain: string | null;
  hostname: string;
}

export function hostInfo(config: Config, hostHeader: string | undefined): HostInfo {
  const hostname = (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase();
  const base = config.BASE_DOMAIN;
  if (hostname === base || hostname === `www.${base}` || !hostname.endsWith(`.${base}`)) {
    return { subdomain: null, hostname };
  }
  const sub = hostname.slice(0, -(base.length + 1));
  return { subdomain: sub.includes('.') ? null : sub, hostname };
}

export const requestHost = (request: FastifyRequest) => hostInfo(request.server.config, request.headers.host);

/** http://acme.localhost:3000, built from PUBLIC_URL. */
export function tenantOrigin(config: Config, subdomain: string): string {
  const url = new URL(config.publicUrl);
  url.hostname = `${subdomain}.${url.hostname}`;
  return url.origin;
}

export const bareOrigin = (config: Config) => config.publicUrl.origin;

/** Cookies are Secure everywhere except plain-http localhost development. */
export function isLocalHost(hostname: string) {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1';
}
