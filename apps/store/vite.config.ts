/// <reference types="vitest/config" />
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * The customer-facing web store. The API serves the HTML of every /s/{slug}/… page itself (with
 * server-rendered content for crawlers and people without JavaScript) and links this build's
 * entry, which it finds in dist/.vite/manifest.json under "src/main.tsx"; the files are served at
 * /s-assets/. The embed script is a second build (vite.embed.config.ts) to dist/embed.js.
 * `vite` (dev) serves index.html at any path and proxies /api to `npm start` on :3000.
 */
export default defineConfig(({ command }) => ({
  base: command === 'build' ? '/s-assets/' : '/',
  plugins: [preact({ prerender: { enabled: false } })],
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
  },
}));
