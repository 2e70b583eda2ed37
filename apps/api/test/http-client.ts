import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * A browser-like client over `app.inject()`: it keeps host-only cookies per host (honouring
 * path, Max-Age and deletion) and sends the Origin header a same-origin page would.
 */
export class Browser {
  private jars = new Map<string, Map<string, { value: string; path: string }>>();

  constructor(
    private app: FastifyInstance,
    public host = 'localhost',
  ) {}

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
