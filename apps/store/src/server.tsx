import { PassThrough } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { App } from './app';
import { scriptJson } from './components/PageHead';
import { createApi } from './lib/api';
import { todayIn } from './lib/dates';
import { dateParam, firstMonth, monthParam, preloadKey, PRELOAD_ELEMENT_ID, type FirstMonth, type OfferList, type Preload } from './lib/preload';
import { matchRoute } from './lib/router';
import type { RenderStorePage, StoreAssets, StorePageRequest } from './server-api';
import { parseCatalog, pseudoCatalog, type ParsedCatalog } from '@tourdesk/contracts/i18n';
import { STORE_CATALOGS } from '@tourdesk/contracts/i18n/catalogs';
import { basePath, MESSAGES_ELEMENT_ID, PSEUDO_LOCALE, translator, type PageLanguage, type StoreKey } from './i18n';

/**
 * The server's side of the web store: reads what the page at `url` shows (the store, its offers,
 * an offer with the first month of its calendar and the chosen day), then draws the whole
 * document with the same App the browser hydrates (main.tsx), the data in the document beside it.
 */
export const renderStorePage: RenderStorePage = async ({ url, slug, origin, assets, data, language, languages, timeFormat }) => {
  const base = basePath(slug, language, languages[0] ?? 'en');
  const messages = catalog(language);
  const t = translator(language, messages);
  const preload = await read({ url, slug, origin, data, language, languages, timeFormat }, base);
  const status = !preload.value.store || preload.notFound ? 404 : 200;
  // The server's drawing runs no effect, so the API is never asked: every answer is in `preload`.
  const app = (
    <Document assets={assets} preload={preload.value} language={language} messages={messages}>
      <App slug={slug} base={base} language={language} languages={languages} hour12={timeFormat === '12h'} t={t} url={url} origin={origin} api={createApi(slug, t.language)} preload={preload.value} />
    </Document>
  );
  return new Promise((resolve, reject) => {
    const stream = renderToPipeableStream(app, {
      bootstrapModules: assets.script ? [assets.script] : [],
      onAllReady() {
        const html = new PassThrough();
        stream.pipe(html);
        resolve({ status, html });
      },
      onShellError: reject,
      onError(error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
};

/** Each language's catalog, parsed once (the browser gets the page's one, and formats it without a parser). */
const parsed = new Map<PageLanguage, ParsedCatalog<StoreKey>>();
function catalog(language: PageLanguage) {
  let messages = parsed.get(language);
  if (!messages) {
    messages = parseCatalog(language === PSEUDO_LOCALE ? pseudoCatalog(STORE_CATALOGS.en) : STORE_CATALOGS[language]);
    parsed.set(language, messages);
  }
  return messages;
}

/** What the page at `url` shows, read through `data`. */
async function read({ url, slug, origin, data, language, languages, timeFormat }: Omit<StorePageRequest, 'assets'>, base: string) {
  const q = url.indexOf('?');
  const route = matchRoute(q < 0 ? url : url.slice(0, q), base);
  const search = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const store = await data.store();
  const value: Preload = { slug, origin, language, base, languages, hour12: timeFormat === '12h', store, data: {} };
  let notFound = route.page === 'not_found';
  if (store && route.page === 'store') {
    const first = await data.offers(1);
    value.data[preloadKey.offers(1)] = { all: first.results, more: first.total_pages > 1 } satisfies OfferList;
  }
  if (store && route.page === 'offer') {
    const offer = await data.offer(route.id);
    if (!offer) {
      notFound = true;
      value.data[preloadKey.offer(route.id)] = { $error: { status: 404, errors: [{ code: 'not_found', detail: 'This offer is not sold in this store.', attr: null }] } };
    } else {
      value.data[preloadKey.offer(offer.id)] = offer;
      const today = todayIn(offer.time_zone);
      const date = dateParam(search.get('date'), today);
      const asked = monthParam(search.get('month'), today) ?? date?.slice(0, 7) ?? null;
      // A month or a day the server cannot read now is left to the browser, which asks and says why.
      const month = await firstMonth(today, asked, (m) => data.month(offer.id, m)).catch(() => null);
      if (month) value.data[preloadKey.month(offer.id)] = { today, month } satisfies FirstMonth;
      const day = date ? await data.day(offer.id, date).catch(() => null) : null;
      if (date && day) value.data[preloadKey.day(offer.id, date)] = day;
    }
  }
  return { value, notFound };
}

function Document({ assets, preload, language, messages, children }: { assets: StoreAssets; preload: Preload; language: PageLanguage; messages: ParsedCatalog<StoreKey>; children: ReactNode }) {
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" type="image/svg+xml" href="/s-assets/favicon.svg" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {assets.modules.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body style={{ margin: 0 }}>
        <div id="store-root">{children}</div>
        <script type="application/json" id={PRELOAD_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: scriptJson(preload) }} />
        <script type="application/json" id={MESSAGES_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: scriptJson(messages) }} />
      </body>
    </html>
  );
}
