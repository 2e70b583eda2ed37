import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatMoney, type TWebOffer, type TWebOfferSummary, type TWebStore } from '@tourdesk/contracts';
import { AppError } from '../../lib/errors';
import { requestHost, tenantOrigin } from '../../lib/host';
import { sanitizeRichText } from '../experiences/sanitize';
import * as svc from './service';

/**
 * The web store's pages: real HTML for every /s/{slug}/… address, so that people without
 * JavaScript, link previews and search engines see the store, its offers, their prices and
 * descriptions (with schema.org JSON-LD and Open Graph tags); the store's own script (apps/store,
 * a bundle of its own that loads no back-office code) then takes over the page. Also the store's
 * sitemap, its assets (/s-assets/), and /embed.js for the operator's own site.
 *
 * Headers: a store may be shown in a frame by its own host and by the sites its settings list
 * (frame-ancestors); every other page keeps the back office's 'none'.
 */

/** The built store (apps/store/dist), found from this file in src/modules/web-store/ or bundled in dist/. */
export const DEFAULT_STORE_DIST = [new URL('../../../../store/dist', import.meta.url), new URL('../../store/dist', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((dir) => existsSync(path.join(dir, '.vite', 'manifest.json')));

interface StoreAssets {
  script: string | null;
  styles: string[];
}

/** The store bundle's entry script and styles, from Vite's manifest (none when it is not built). */
export function storeAssets(distDir: string | undefined): StoreAssets {
  const manifestPath = distDir ? path.join(distDir, '.vite', 'manifest.json') : undefined;
  if (!manifestPath || !existsSync(manifestPath)) return { script: null, styles: [] };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; css?: string[]; isEntry?: boolean }>;
  const entry = manifest['src/main.tsx'] ?? Object.values(manifest).find((c) => c.isEntry);
  if (!entry) return { script: null, styles: [] };
  return { script: `/s-assets/${entry.file}`, styles: (entry.css ?? []).map((f) => `/s-assets/${f}`) };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON inside a <script> element: nothing in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
const plain = (html: string) => sanitizeRichText(html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const minutes = (m: number | null) => (m === null ? '' : m < 60 ? `${m} min` : `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`);

interface Page {
  title: string;
  description: string;
  canonical: string;
  image?: string | null;
  body: string;
  jsonLd?: unknown;
  noindex?: boolean;
}

function document(store: TWebStore, page: Page, assets: StoreAssets, slug: string) {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description.slice(0, 300))}">`,
    `<link rel="canonical" href="${escapeHtml(page.canonical)}">`,
    `<meta name="theme-color" content="${escapeHtml(store.primary_color)}">`,
    page.noindex ? '<meta name="robots" content="noindex">' : '',
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${escapeHtml(store.name)}">`,
    `<meta property="og:title" content="${escapeHtml(page.title)}">`,
    `<meta property="og:description" content="${escapeHtml(page.description.slice(0, 300))}">`,
    `<meta property="og:url" content="${escapeHtml(page.canonical)}">`,
    page.image ? `<meta property="og:image" content="${escapeHtml(page.image)}">` : '',
    `<meta name="twitter:card" content="${page.image ? 'summary_large_image' : 'summary'}">`,
    page.jsonLd ? `<script type="application/ld+json">${scriptJson(page.jsonLd)}</script>` : '',
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    assets.script ? `<script type="module" src="${assets.script}"></script>` : '',
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
${head.join('\n')}
</head>
<body>
<div id="store-root" data-slug="${escapeHtml(slug)}" data-base="/s/${escapeHtml(slug)}/">
${page.body}
</div>
</body>
</html>
`;
}

function offerCard(base: string, o: TWebOfferSummary) {
  const price = o.from_price === null ? '' : `<p class="price">From ${escapeHtml(formatMoney(o.from_price, o.currency))}</p>`;
  return `<li><a href="${base}offers/${o.id}">${o.image_url ? `<img src="${escapeHtml(o.image_url)}" alt="" width="480" height="320" loading="lazy">` : ''}<h2>${escapeHtml(o.title)}</h2></a><p>${escapeHtml(o.short_description)}</p>${o.duration_minutes ? `<p>${minutes(o.duration_minutes)}</p>` : ''}${price}</li>`;
}

function storeHeader(store: TWebStore, base: string) {
  return `<header><a href="${base}">${store.logo_url ? `<img src="${escapeHtml(store.logo_url)}" alt="${escapeHtml(store.name)}" height="48">` : ''}<strong>${escapeHtml(store.name)}</strong></a></header>`;
}

/** The JSON-LD of an offer: a Product with its offers (the from price in the store's currency). */
function offerJsonLd(origin: string, base: string, o: TWebOffer, store: TWebStore) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: o.title,
    description: o.short_description || plain(o.long_description).slice(0, 500),
    image: o.images.map((i) => `${origin}${i.url}`),
    url: `${origin}${base}offers/${o.id}`,
    brand: { '@type': 'Organization', name: store.organisation },
    ...(o.from_price !== null
      ? {
          offers: {
            '@type': 'AggregateOffer',
            priceCurrency: o.currency,
            lowPrice: (o.from_price / 10 ** minorDigits(o.currency)).toFixed(minorDigits(o.currency)),
            availability: 'https://schema.org/InStock',
            url: `${origin}${base}offers/${o.id}`,
          },
        }
      : {}),
  };
}

const minorDigits = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

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

  /** The store of this host and address, inside its organisation; 404 page when there is none. */
  async function withStore<T>(request: FastifyRequest, slug: string, fn: (ctx: svc.WebCtx, store: TWebStore) => Promise<T>) {
    return svc.inStore(request, slug, async (ctx) => fn(ctx, await svc.webStore(ctx, Boolean(request.server.config.STRIPE_SECRET_KEY))));
  }

  /** Frames: its own host, and the sites the store lists. */
  function frameHeaders(reply: FastifyReply, embedOrigins: string[]) {
    const csp = String(reply.getHeader('content-security-policy') ?? '').replace("frame-ancestors 'none'", `frame-ancestors 'self'${embedOrigins.map((o) => ` ${o}`).join('')}`);
    reply.header('content-security-policy', csp).removeHeader('x-frame-options');
  }

  async function page(request: FastifyRequest, reply: FastifyReply, slug: string, build: (ctx: svc.WebCtx, store: TWebStore, origin: string, base: string) => Promise<Page>) {
    try {
      const html = await withStore(request, slug, async (ctx, store) => {
        frameHeaders(reply, ctx.store.embed_origins);
        const origin = tenantOrigin(request.server.config, requestHost(request).subdomain!);
        const base = `/s/${slug}/`;
        return document(store, await build(ctx, store, origin, base), assets, slug);
      });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) {
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><meta name="robots" content="noindex"></head><body><main><h1>Not found</h1><p>${escapeHtml(error.message)}</p></main></body></html>`);
      }
      throw error;
    }
  }

  /** The offers the store sells (its own and its partners'), read before the page's transaction; none when there is no store (the page says so). */
  const storeOffers = (request: FastifyRequest, slug: string, limit: number) =>
    svc
      .storeByHost(request, slug)
      .then((found) => svc.offers(request.server.database.db, found, limit, 0))
      .catch(() => []);

  app.get<{ Params: { slug: string } }>('/s/:slug/', { config: pub, schema: hidden }, async (request, reply) => {
    const list = await storeOffers(request, request.params.slug, 100);
    return page(request, reply, request.params.slug, async (_ctx, store, origin, base) => {
      return {
        title: store.name,
        description: store.intro || `Book ${list.map((o) => o.title).join(', ')} with ${store.organisation}.`,
        canonical: `${origin}${base}`,
        image: list.find((o) => o.image_url)?.image_url ? `${origin}${list.find((o) => o.image_url)!.image_url}` : null,
        body: `${storeHeader(store, base)}<main><h1>${escapeHtml(store.name)}</h1>${store.intro ? `<p>${escapeHtml(store.intro)}</p>` : ''}<ul>${list.map((o) => offerCard(base, o)).join('')}</ul></main>`,
        jsonLd: {
          '@context': 'https://schema.org',
          '@type': 'ItemList',
          name: store.name,
          itemListElement: list.map((o, i) => ({ '@type': 'ListItem', position: i + 1, url: `${origin}${base}offers/${o.id}`, name: o.title })),
        },
      };
    });
  });

  app.get<{ Params: { slug: string; id: string } }>('/s/:slug/offers/:id', { config: pub, schema: hidden }, async (request, reply) => {
    const { slug, id } = request.params;
    // The offer in its seller's books (the store's organisation, or a partner's), before the store's page.
    const found: TWebOffer | Error = /^[0-9a-f-]{36}$/i.test(id) ? await svc.inOfferSeller(request, slug, id, (ctx) => svc.offer(ctx, id)).catch((error: Error) => error) : new AppError('not_found', 'This offer is not sold in this store.');
    return page(request, reply, slug, async (_ctx, store, origin, base) => {
      if (found instanceof Error) throw found;
      const o = found;
      const description = o.short_description || plain(o.long_description).slice(0, 300);
      const price = o.from_price === null ? '' : `<p class="price">From ${escapeHtml(formatMoney(o.from_price, o.currency))}</p>`;
      const list = (title: string, items: string[]) => (items.length ? `<h2>${title}</h2><ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>` : '');
      return {
        title: `${o.title} | ${store.name}`,
        description,
        canonical: `${origin}${base}offers/${o.id}`,
        image: o.images[0] ? `${origin}${o.images[0].url}` : null,
        jsonLd: offerJsonLd(origin, base, o, store),
        body:
          `${storeHeader(store, base)}<main><article><h1>${escapeHtml(o.title)}</h1>${price}` +
          (o.duration_minutes ? `<p>Duration: ${minutes(o.duration_minutes)}</p>` : '') +
          o.images.map((i) => `<img src="${escapeHtml(i.url)}" alt="" width="${i.width ?? 640}" height="${i.height ?? 480}" loading="lazy">`).join('') +
          `<p>${escapeHtml(o.short_description)}</p><div>${sanitizeRichText(o.long_description)}</div>` +
          list('Highlights', o.highlights) +
          list('Included', o.inclusions) +
          list('Not included', o.exclusions) +
          list('What to bring', o.what_to_bring) +
          (o.meeting_points.length ? `<h2>Meeting point</h2>${o.meeting_points.map((m) => `<p>${escapeHtml([m.name, m.address].filter(Boolean).join(', '))}</p>`).join('')}` : '') +
          (o.cancellation_policy ? `<h2>Cancellation</h2><p>${escapeHtml(o.cancellation_policy.description || o.cancellation_policy.name)}</p>` : '') +
          `<p><a href="${base}">All offers of ${escapeHtml(store.name)}</a></p></article></main>`,
      };
    });
  });

  // The customer's own pages (cart, confirmation, booking): shown by the store's script, never indexed.
  app.get<{ Params: { slug: string; '*': string } }>('/s/:slug/*', { config: pub, schema: hidden }, (request, reply) =>
    page(request, reply, request.params.slug, async (_ctx, store, origin, base) => ({
      title: store.name,
      description: store.intro,
      canonical: `${origin}${base}`,
      noindex: true,
      body: `${storeHeader(store, base)}<main><p>Loading… This page needs JavaScript. <a href="${base}">See the offers</a>.</p></main>`,
    })),
  );

  app.get<{ Params: { slug: string } }>('/s/:slug/sitemap.xml', { config: pub, schema: hidden }, async (request, reply) => {
    const found = await svc.storeByHost(request, request.params.slug);
    const list = await svc.offers(request.server.database.db, found, 1000, 0);
    const xml = await withStore(request, request.params.slug, async () => {
      const origin = tenantOrigin(request.server.config, requestHost(request).subdomain!);
      const base = `${origin}/s/${request.params.slug}/`;
      const urls = [base, ...list.map((o) => `${base}offers/${o.id}`)];
      return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <url><loc>${escapeHtml(u)}</loc></url>`).join('\n')}\n</urlset>\n`;
    });
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
