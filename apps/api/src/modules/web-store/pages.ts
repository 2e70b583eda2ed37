import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderStorePage, type StoreAssets, type StoreData } from '@tourdesk/store/server';
import { AppError } from '../../lib/errors';
import { requestHost, tenantOrigin } from '../../lib/host';
import * as catalogue from './catalogue';
import { storeAt } from './routes';
import * as scope from './scope';
import * as storeScope from '../stores/scope';

/**
 * The web store's pages: every /s/{slug}/… address answers the whole document drawn by React on
 * the server (apps/store/src/server.tsx, bundled into this server's build), with the store, its
 * offers, their prices, the first month of an offer's calendar, the page's head (title,
 * description, canonical, Open Graph, schema.org JSON-LD) and the data it was drawn from; the
 * store's script (apps/store, a bundle of its own that loads no back-office code) hydrates it.
 * Also the store's sitemap, its assets (/s-assets/), and /embed.js for the operator's own site.
 *
 * Headers: a store may be shown in a frame by its own host and by the sites its settings list
 * (frame-ancestors); every other page keeps the back office's 'none'.
 */

/** The built store (apps/store/dist), found from this file in src/modules/web-store/ or bundled in dist/. */
export const DEFAULT_STORE_DIST = [new URL('../../../../store/dist', import.meta.url), new URL('../../store/dist', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((dir) => existsSync(path.join(dir, '.vite', 'manifest.json')));

/** The store bundle's entry script, the chunks it imports (modulepreload) and its styles, from Vite's manifest (none when it is not built). */
export function storeAssets(distDir: string | undefined): StoreAssets {
  const manifestPath = distDir ? path.join(distDir, '.vite', 'manifest.json') : undefined;
  const none = { script: null, modules: [], styles: [] };
  if (!manifestPath || !existsSync(manifestPath)) return none;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>;
  const entryKey = manifest['src/main.tsx'] ? 'src/main.tsx' : Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey) return none;
  const chunks = new Set([entryKey]);
  for (const key of chunks) for (const dep of manifest[key]?.imports ?? []) chunks.add(dep);
  const files = [...chunks].map((k) => manifest[k]!);
  return {
    script: `/s-assets/${files[0]!.file}`,
    modules: files.slice(1).map((c) => `/s-assets/${c.file}`),
    styles: [...new Set(files.flatMap((c) => c.css ?? []))].map((f) => `/s-assets/${f}`),
  };
}

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = (error: unknown) => error instanceof AppError && error.status === 404;

/**
 * What a store page may show, read as the public API reads it (the same service calls): the
 * store in its organisation's books, its offers (its own and its partners'), an offer in its
 * seller's books, and the days and times of `tourdesk_availability()` through the store's cache.
 */
function pageData(request: FastifyRequest, slug: string, found: storeScope.FoundStore | null): StoreData {
  const db = request.server.database.db;
  const platformHasStripe = Boolean(request.server.config.STRIPE_SECRET_KEY);
  return {
    store: async () => (found ? storeScope.inSeller(db, found, found.s.account_id, (ctx) => catalogue.webStore(ctx, platformHasStripe)) : null),
    async offers(page) {
      if (!found) return { results: [], total_pages: 1 };
      const [count, results] = await Promise.all([catalogue.countOffers(db, found.s.id), catalogue.offers(db, found, 50, (page - 1) * 50)]);
      return { results, total_pages: Math.max(1, Math.ceil(count / 50)) };
    },
    offer: (id) =>
      UUID.test(id) ? scope.inOfferSeller(storeAt(request), slug, id, (ctx) => catalogue.offer(ctx, id)).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error))) : Promise.resolve(null),
    month: async (offer, month) => catalogue.month(db, await scope.publicStore(storeAt(request), slug), offer, month),
    day: async (offer, date) => catalogue.day(db, await scope.publicStore(storeAt(request), slug), offer, date),
  };
}

export async function registerWebStorePages(app: FastifyInstance, distDir: string | undefined) {
  const assets = storeAssets(distDir);
  if (!assets.script) app.log.warn({ distDir }, 'web store not built: its pages are served without their script (run npm run build)');
  const pub = { access: { public: true as const, reason: 'the public web store’s pages' } };
  // Pages, not API operations: left out of the OpenAPI document.
  const hidden = { hide: true };

  if (distDir && existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: path.resolve(distDir),
      prefix: '/s-assets/',
      decorateReply: false,
      index: false,
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      },
    });
  }

  /** Frames: its own host, and the sites the store lists. */
  function frameHeaders(reply: FastifyReply, embedOrigins: string[]) {
    const csp = String(reply.getHeader('content-security-policy') ?? '').replace("frame-ancestors 'none'", `frame-ancestors 'self'${embedOrigins.map((o) => ` ${o}`).join('')}`);
    reply.header('content-security-policy', csp).removeHeader('x-frame-options');
  }

  /** The page at this address, drawn by the store's React tree; 404 (drawn too) when the store, offer or page does not exist. */
  async function page(request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) {
    const { slug } = request.params;
    const found = await scope.storeByHost(storeAt(request), slug).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error)));
    if (found) frameHeaders(reply, found.s.embed_origins);
    const origin = tenantOrigin(request.server.config, requestHost(request).subdomain ?? '');
    const { status, html } = await renderStorePage({ url: request.url, slug, origin, assets, data: pageData(request, slug, found) });
    return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  }

  app.get<{ Params: { slug: string } }>('/s/:slug/', { config: pub, schema: hidden }, page);
  app.get<{ Params: { slug: string; '*': string } }>('/s/:slug/*', { config: pub, schema: hidden }, page);

  app.get<{ Params: { slug: string } }>('/s/:slug/sitemap.xml', { config: pub, schema: hidden }, async (request, reply) => {
    const found = await scope.storeByHost(storeAt(request), request.params.slug);
    const list = await catalogue.offers(request.server.database.db, found, 1000, 0);
    const origin = tenantOrigin(request.server.config, requestHost(request).subdomain!);
    const base = `${origin}/s/${request.params.slug}/`;
    const urls = [base, ...list.map((o) => `${base}offers/${o.id}`)];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <url><loc>${escapeXml(u)}</loc></url>`).join('\n')}\n</urlset>\n`;
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(xml);
  });

  // The operator's own site loads this script (any site: it only puts the store's frame there).
  app.get('/embed.js', { config: pub, schema: hidden }, async (_request, reply) => {
    const file = distDir ? path.join(distDir, 'embed.js') : undefined;
    if (!file || !existsSync(file)) return reply.status(404).type('application/javascript').send('/* the web store is not built */');
    return reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(readFileSync(file));
  });
}
