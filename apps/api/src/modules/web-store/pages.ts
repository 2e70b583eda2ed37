import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderStorePage, type StoreAssets, type StoreData } from '@tourdesk/store/server';
import { AppError } from '../../lib/errors';
import { requestHost, tenantOrigin } from '../../lib/host';
import type { Language } from '@tourdesk/contracts/i18n';
import * as catalogue from './catalogue';
import { decidePage, LANGUAGE_COOKIE, PSEUDO_LOCALE, storeLanguages, storeTimeFormat } from './language';
import { catalogueAt, storeAt } from './routes';
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
function pageData(request: FastifyRequest, slug: string, found: storeScope.FoundStore | null, language: Language): StoreData {
  // The catalogue from the replica when there is one (routes.ts, catalogueAt); seats left from the primary.
  const db = request.server.database.read;
  const primary = request.server.database.db;
  const platformHasStripe = Boolean(request.server.config.STRIPE_SECRET_KEY);
  return {
    store: async () => (found ? storeScope.inSeller(db, found, found.s.account_id, (ctx) => catalogue.webStore(ctx, platformHasStripe, language)) : null),
    async offers(page) {
      if (!found) return { results: [], total_pages: 1 };
      const [count, results] = await Promise.all([catalogue.countOffers(db, found.s.id), catalogue.offers(db, found, 50, (page - 1) * 50, language)]);
      return { results, total_pages: Math.max(1, Math.ceil(count / 50)) };
    },
    offer: (id) =>
      UUID.test(id) ? scope.inOfferSeller(catalogueAt(request), slug, id, (ctx) => catalogue.offer(ctx, id, language)).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error))) : Promise.resolve(null),
    month: async (offer, month) => catalogue.month(primary, await scope.publicStore(storeAt(request), slug), offer, month),
    day: async (offer, date) => catalogue.day(primary, await scope.publicStore(storeAt(request), slug), offer, date),
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

  /** The customer's choice of language, kept per store (the cookie's path). */
  const cookieOf = (request: FastifyRequest) => /(?:^|;\s*)td_lang=([^;]*)/.exec(request.headers.cookie ?? '')?.[1] ?? null;
  function remember(request: FastifyRequest, reply: FastifyReply, slug: string, language: Language) {
    const secure = request.protocol === 'https' ? '; Secure' : '';
    reply.header('set-cookie', `${LANGUAGE_COOKIE}=${language}; Path=/s/${encodeURIComponent(slug)}/; Max-Age=31536000; SameSite=Lax${secure}`);
  }

  /**
   * The page at this address, drawn by the store's React tree in its language (language.ts: the
   * address's, or for an unprefixed one the visitor's choice or browser's, then a redirect to it);
   * 404 (drawn too) when the store, offer, page or language does not exist.
   */
  async function page(request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) {
    const { slug } = request.params;
    const found = await scope.storeByHost(catalogueAt(request), slug).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error)));
    if (found) frameHeaders(reply, found.s.embed_origins);
    const languages = found ? await storeLanguages(request.server.database.read, found) : (['en'] as Language[]);
    const decision = decidePage({ slug, url: request.url, languages, cookie: cookieOf(request), acceptLanguage: request.headers['accept-language'], pseudo: request.server.config.STORE_PSEUDO_LOCALE });
    if (decision.kind === 'redirect') {
      if (decision.remember) remember(request, reply, slug, decision.remember);
      return reply.header('vary', 'Accept-Language, Cookie').header('cache-control', 'no-cache').redirect(decision.location, 302);
    }
    const language = decision.kind === 'page' ? decision.language : languages[0]!;
    if (decision.kind === 'page' && decision.choice && decision.language !== PSEUDO_LOCALE && decision.language !== languages[0]) remember(request, reply, slug, decision.language);
    // The unprefixed address is the default language's, unless the choice or the browser says otherwise.
    if (decision.kind === 'page' && decision.language === languages[0]) reply.header('vary', 'Accept-Language, Cookie');
    const origin = tenantOrigin(request.server.config, requestHost(request).subdomain ?? '');
    const content: Language = language === PSEUDO_LOCALE ? 'en' : language;
    const timeFormat = found ? await storeTimeFormat(request.server.database.read, found) : '24h';
    const { status, html } = await renderStorePage({ url: request.url, slug, origin, assets, language, languages, timeFormat, data: pageData(request, slug, found, content) });
    return reply
      .status(decision.kind === 'not_found' ? 404 : status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-language', content)
      .send(html);
  }

  app.get<{ Params: { slug: string } }>('/s/:slug/', { config: pub, schema: hidden }, page);
  app.get<{ Params: { slug: string; '*': string } }>('/s/:slug/*', { config: pub, schema: hidden }, page);

  /** Every page of the store in every language it sells in, each with its alternates (hreflang, x-default: the default's). */
  app.get<{ Params: { slug: string } }>('/s/:slug/sitemap.xml', { config: pub, schema: hidden }, async (request, reply) => {
    const found = await scope.storeByHost(catalogueAt(request), request.params.slug);
    const db = request.server.database.read;
    const [list, languages] = await Promise.all([catalogue.offers(db, found, 1000, 0), storeLanguages(db, found)]);
    const origin = tenantOrigin(request.server.config, requestHost(request).subdomain!);
    const root = `${origin}/s/${request.params.slug}/`;
    const at = (language: Language, path: string) => `${language === languages[0] ? root : `${root}${language}/`}${path}`;
    const paths = ['', ...list.map((o) => `offers/${o.id}`)];
    const alternates = (path: string) =>
      languages.length < 2
        ? ''
        : [...languages.map((l) => [l, at(l, path)]), ['x-default', at(languages[0]!, path)]].map(([l, href]) => `\n    <xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(href!)}"/>`).join('');
    const urls = paths.flatMap((path) => languages.map((l) => `  <url><loc>${escapeXml(at(l, path))}</loc>${alternates(path)}${languages.length < 2 ? '' : '\n  '}</url>`));
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
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
