/*
 * The back office's service worker: the app opens without a network, so a guide who reloads the
 * check-in page at a meeting point with no signal keeps scanning from the tickets kept on the phone.
 *
 * - Pages of the back office (navigations): the network first, and the last app page kept when
 *   there is none. Every client route answers the same index.html, kept under one key.
 * - Hashed assets (/assets/…, never changed once built): from the cache once fetched, so every
 *   chunk the app has loaded online (the check-in page's among them) opens offline.
 * - Nothing else: the API, the public web store (/s/), QR links (/q/), OCTO and the embed script
 *   always go to the network as if there were no service worker; no answer of the API is cached.
 */
const SHELL_CACHE = 'tourdesk-shell-v1';
const ASSET_CACHE = 'tourdesk-assets-v1';
const SHELL_KEY = '/__app-shell';
/** Assets kept at most (the oldest go first), so that builds after builds do not pile up. */
const MAX_ASSETS = 300;
const NOT_THE_APP = /^\/(api|s|q|octo|auth\/oidc|embed\.js|sw\.js)(\/|$)/;

/** Keeps these same-origin hashed assets (already in the browser's HTTP cache, usually). */
async function keepAssets(urls) {
  const cache = await caches.open(ASSET_CACHE);
  for (const url of urls) {
    const u = new URL(url, self.location.origin);
    if (u.origin !== self.location.origin || !u.pathname.startsWith('/assets/') || (await cache.match(u.href))) continue;
    try {
      const response = await fetch(u.href);
      if (response.ok) await cache.put(u.href, response);
    } catch {
      /* offline already: kept next time */
    }
  }
  await trimAssets(cache);
}

// Installing keeps the app page and the assets it names (entry, styles, preloaded chunks).
self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      try {
        const response = await fetch('/', { cache: 'no-cache' });
        if (response.ok) {
          const html = await response.clone().text();
          await (await caches.open(SHELL_CACHE)).put(SHELL_KEY, response);
          await keepAssets([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]));
        }
      } catch {
        /* installed without a copy: the next page opened online makes one */
      }
      await self.skipWaiting();
    })(),
  );
});

// The page tells which chunks it loaded before this worker controlled it (shared/lib/service-worker.ts).
self.addEventListener('message', (event) => {
  if (event.data?.type === 'keep-assets' && Array.isArray(event.data.urls)) event.waitUntil(keepAssets(event.data.urls));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL_CACHE, ASSET_CACHE]);
      for (const name of await caches.keys()) if (!keep.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

async function trimAssets(cache) {
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ASSETS))) await cache.delete(old);
}

async function page(request) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/html')) await cache.put(SHELL_KEY, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(SHELL_KEY);
    if (kept) return kept;
    throw error;
  }
}

async function asset(request) {
  const cache = await caches.open(ASSET_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    await trimAssets(cache);
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NOT_THE_APP.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(asset(request));
});
