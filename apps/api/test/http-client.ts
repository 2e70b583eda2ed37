import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** A web store's call: its path's store address. */
const STORE_CALL = /^\/api\/web-stores\/([^/]+)\//;

/** What the store's page sends as X-Altcha: the store's challenge, solved (apps/store/src/lib/challenge.ts does the same in the browser). */
export async function solvedChallenge(app: FastifyInstance, host: string, slug: string, remoteAddress?: string) {
  const res = await app.inject({ method: 'GET', url: `/api/web-stores/${slug}/challenge/`, headers: { host }, ...(remoteAddress ? { remoteAddress } : {}) });
  if (res.statusCode !== 200) throw new Error(`no challenge: ${res.statusCode} ${res.body}`);
  const challenge = res.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * A browser-like client over `app.inject()`: it keeps host-only cookies per host (honouring
 * path, Max-Age and deletion) and sends the Origin header a same-origin page would. On a web
 * store's calls it does what the store's page does: a pay-on-site order carries a solved challenge,
 * and a call answered 403 `challenge_required` is sent again with one (unless the test set X-Altcha).
 */
export class Browser {
  private jars = new Map<string, Map<string, { value: string; path: string }>>();
  /** The client's address (app.inject's remoteAddress; 127.0.0.1 when unset). */
  public address?: string;

  constructor(
    private app: FastifyInstance,
    public host = 'localhost',
  ) {}

  from(address: string) {
    this.address = address;
    return this;
  }

  on(host: string) {
    this.host = host;
    return this;
  }

  cookie(name: string, host = this.host) {
    return this.jars.get(host)?.get(name)?.value;
  }

  setCookie(name: string, value: string, path = '/', host = this.host) {
    if (!this.jars.has(host)) this.jars.set(host, new Map());
    this.jars.get(host)!.set(name, { value, path });
  }

  async request(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
    const store = method === 'POST' && headers['x-altcha'] === undefined ? STORE_CALL.exec(url)?.[1] : undefined;
    if (store === undefined) return this.send(method, url, payload, headers);
    const payOnSite = /\/orders\/$/.test(url.split('?')[0]!) && (payload as { payment_option?: string } | undefined)?.payment_option === 'pay_on_site';
    // No challenge to be had (no such store, or throttled): the call goes as it is and answers why.
    const solved = () => solvedChallenge(this.app, this.host, store, this.address).then((v) => ({ 'x-altcha': v }), () => ({}));
    if (payOnSite) return this.send(method, url, payload, { ...headers, ...(await solved()) });
    const res = await this.send(method, url, payload, headers);
    if (res.statusCode !== 403 || res.json().errors?.[0]?.code !== 'challenge_required') return res;
    return this.send(method, url, payload, { ...headers, ...(await solved()) });
  }

  private async send(method: string, url: string, payload: unknown, headers: Record<string, string>) {
    const jar = this.jars.get(this.host) ?? new Map();
    const path = url.split('?')[0]!;
    const cookie = [...jar.entries()]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
    const options: InjectOptions = {
      method: method as InjectOptions['method'],
      url,
      headers: {
        host: this.host,
        ...(method !== 'GET' ? { origin: `http://${this.host}` } : {}),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
      ...(this.address ? { remoteAddress: this.address } : {}),
    };
    const res = await this.app.inject(options);
    this.store(res);
    return res;
  }

  private store(res: LightMyRequestResponse) {
    if (!this.jars.has(this.host)) this.jars.set(this.host, new Map());
    const jar = this.jars.get(this.host)!;
    for (const c of res.cookies as { name: string; value: string; path?: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now()) || c.value === '';
      if (expired) jar.delete(c.name);
      else jar.set(c.name, { value: c.value, path: c.path ?? '/' });
    }
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body ?? {}, headers);
  patch = (url: string, body: unknown) => this.request('PATCH', url, body);
  put = (url: string, body: unknown) => this.request('PUT', url, body);
  delete = (url: string, body?: unknown) => this.request('DELETE', url, body);
}

export const BASE = 'localhost';
export const tenantHost = (subdomain: string) => `${subdomain}.localhost`;
