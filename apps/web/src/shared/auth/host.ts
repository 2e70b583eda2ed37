/**
 * Which host the app runs on: the bare host (sign-in and sign-up, no session check) or an
 * organisation's subdomain. The base domain comes from the server's public config.
 */
export function subdomainOf(hostname: string, baseDomain: string): string | null {
  const host = hostname.toLowerCase();
  if (host === baseDomain || host === `www.${baseDomain}` || !host.endsWith(`.${baseDomain}`)) return null;
  const sub = host.slice(0, -(baseDomain.length + 1));
  return sub.includes('.') ? null : sub;
}

/** http://acme.localhost:3000 from http://localhost:3000. */
export function tenantOrigin(publicUrl: string, subdomain: string): string {
  const url = new URL(publicUrl);
  url.hostname = `${subdomain}.${url.hostname}`;
  return url.origin;
}
