import { render } from 'preact';
import { App } from './app';
import { createApi } from './lib/api';
import { isEmbedded } from './lib/frame';
import './styles.css';

/**
 * The server writes, for every /s/{slug}/… page, a document whose body holds
 * <div id="store-root" data-slug="…" data-base="/s/{slug}/"> with server-rendered content for
 * crawlers and people without JavaScript. The app replaces that content.
 */
const root = document.getElementById('store-root');
if (root) {
  const slug = root.dataset.slug || decodeURIComponent(/^\/s\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
  const base = root.dataset.base || `/s/${slug}/`;
  root.textContent = '';
  document.body.style.margin = '0';
  render(<App slug={slug} base={base} api={createApi(slug)} embed={isEmbedded(location.search)} />, root);
}
