/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The customer-facing web store, in the browser. The API's server draws every /s/{slug}/… page
 * with React (src/server.tsx, bundled into the API's own build) and links this build's entry,
 * which it finds in dist/.vite/manifest.json under "src/main.tsx" (with the chunks it imports, for
 * modulepreload); the browser hydrates the drawing. The files are served at /s-assets/. The embed
 * script is a second build (vite.embed.config.ts) to dist/embed.js. `vite` (dev) serves index.html
 * at any path, where the app draws itself, and proxies /api to `npm start` on :3000.
 */
export default defineConfig(({ command }) => ({
  base: command === 'build' ? '/s-assets/' : '/',
  plugins: [react()],
  // The browser gets each page's catalog already parsed (server.tsx, parseCatalog): FormatJS's
  // parser stays out of the bundle. The development server keeps it (it has no server drawing).
  resolve: command === 'build' ? { alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/lib/no-parser.js' }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
    // No HTML entry: the server writes the document.
    rollupOptions: { input: 'src/main.tsx' },
    target: 'es2020',
  },
  server: {
    port: 5174,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  test: {
    name: 'store',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    env: { TZ: 'UTC' },
    css: false,
    // A worker thread of its own for each file (vitest.config.ts: the forks pool reuses its processes).
    pool: 'threads',
    sequence: { groupOrder: 1 },
  },
}));
