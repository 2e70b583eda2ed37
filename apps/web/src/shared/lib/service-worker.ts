/**
 * Registers the back office's service worker (public/sw.js) in a built app, so that its pages open
 * without a network once they have been opened with one. Browsers allow it on HTTPS and on
 * localhost (and *.localhost); elsewhere, and in the dev server, nothing happens. The chunks this
 * page loaded before the worker took control are named to it, to be kept as well.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const loadedAssets = () =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((url) => url.startsWith(`${window.location.origin}/assets/`));
  const tell = () => navigator.serviceWorker.controller?.postMessage({ type: 'keep-assets', urls: loadedAssets() });
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => {
        navigator.serviceWorker.addEventListener('controllerchange', tell);
        tell();
      })
      .catch(() => {
        /* not offline-capable here; the app works as before */
      });
  });
}
