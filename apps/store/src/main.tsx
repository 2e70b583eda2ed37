import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { createApi } from './lib/api';
import { PRELOAD_ELEMENT_ID, type Preload } from './lib/preload';
import './styles.css';

/**
 * The server draws every /s/{slug}/… page with the same App (server.tsx) and hands over what it
 * read in <script type="application/json" id="td-preload">: the browser hydrates that drawing.
 * Only the development server (`vite`, index.html) has no drawing: there the app draws itself.
 */
const root = document.getElementById('store-root');
if (root) {
  const data = document.getElementById(PRELOAD_ELEMENT_ID)?.textContent;
  const preload = data ? (JSON.parse(data) as Preload) : null;
  const slug = preload?.slug ?? decodeURIComponent(/^\/s\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
  const app = <App slug={slug} base={`/s/${slug}/`} url={location.pathname + location.search} origin={preload?.origin ?? location.origin} api={createApi(slug)} preload={preload} />;
  if (preload) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
