import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import type { ParsedCatalog } from '@tourdesk/contracts/i18n';
import { isPageLanguage, MESSAGES_ELEMENT_ID, translator, type StoreKey } from './i18n';
import { createApi } from './lib/api';
import { PRELOAD_ELEMENT_ID, type Preload } from './lib/preload';
import './styles.css';

/**
 * The server draws every /s/{slug}/… page with the same App (server.tsx) and hands over what it
 * read in <script type="application/json" id="td-preload">: the browser hydrates that drawing.
 * Only the development server (`vite`, index.html) has no drawing: there the app draws itself.
 */
const root = document.getElementById('store-root');
if (root) start(root);

async function start(root: HTMLElement) {
  const data = document.getElementById(PRELOAD_ELEMENT_ID)?.textContent;
  const preload = data ? (JSON.parse(data) as Preload) : null;
  // The page's catalog, parsed by the server: this bundle has no parser and no words of its own.
  const embedded = document.getElementById(MESSAGES_ELEMENT_ID)?.textContent;
  // Only the development server (`vite`, no server drawing) reads the English catalog itself (it keeps the parser).
  const messages = embedded ? (JSON.parse(embedded) as ParsedCatalog<StoreKey>) : import.meta.env.DEV ? (await import('@tourdesk/contracts/i18n/catalogs')).STORE_CATALOGS.en : ({} as ParsedCatalog<StoreKey>);
  const slug = preload?.slug ?? decodeURIComponent(/^\/s\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
  const language = preload && isPageLanguage(preload.language) ? preload.language : 'en';
  const t = translator(language, messages);
  const app = (
    <App
      slug={slug}
      base={preload?.base ?? `/s/${slug}/`}
      language={language}
      languages={preload?.languages ?? ['en']}
      hour12={preload?.hour12 ?? false}
      t={t}
      url={location.pathname + location.search}
      origin={preload?.origin ?? location.origin}
      api={createApi(slug, t.language)}
      preload={preload}
    />
  );
  if (preload) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
