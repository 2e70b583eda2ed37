/// <reference types="vitest/config" />
import preactPreset from '@preact/preset-vite';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The back office is written against React's API and runs on Preact 11 (react-on-preact.mjs): every
 * `react` and `react-dom` import, the libraries' included, resolves to Preact's compatibility layer,
 * in the build and in the component tests alike. That took the first page load from 224 to about
 * 165 kB gzip (scripts/size.mjs). Preact's Vite preset compiles the JSX and, in `vite` (dev),
 * refreshes edited components in place (Prefresh); its own aliases are off for the ones below, and
 * `dedupe` makes every `preact` import (the preset's runtime too) this app's Preact 11, not the web
 * store's Preact 10 at the root of node_modules.
 */
const preactDir = path.dirname(createRequire(import.meta.url).resolve('preact/package.json'));
const preact = (file: string) => path.join(preactDir, file);

export default defineConfig({
  plugins: [preactPreset({ reactAliasesEnabled: false, prerender: { enabled: false } })],
  resolve: {
    // The browser's conditions and fields (Vite's defaults for a client build). Vitest resolves as a
    // server would, to the libraries' CommonJS files, whose `require('react')` no alias reaches.
    conditions: ['module', 'browser', 'development|production'],
    mainFields: ['browser', 'module', 'jsnext:main', 'jsnext'],
    dedupe: ['preact'],
    alias: [
      { find: /^react-dom\/test-utils$/, replacement: preact('test-utils/dist/testUtils.mjs') },
      { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
      { find: /^react-dom$/, replacement: preact('compat/dist/compat.mjs') },
      { find: /^react\/jsx-runtime$/, replacement: preact('compat/jsx-runtime.mjs') },
      { find: /^react\/jsx-dev-runtime$/, replacement: preact('compat/jsx-dev-runtime.mjs') },
      { find: /^react$/, replacement: path.resolve(import.meta.dirname, 'react-on-preact.mjs') },
    ],
  },
  build: {
    // The manifest maps every route chunk to its files: scripts/size.mjs reads it.
    manifest: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    env: { TZ: 'UTC' },
    css: false,
    // The libraries go through Vite (and the aliases) rather than Node's own loader. The large ones,
    // Preact's entries and the CommonJS-only one (react-redux's selector hook) are pre-bundled once,
    // as the dev server does, rather than transformed again for every test file (that halved the
    // run); Preact's entries are among them so that every bundle shares one Preact.
    server: { deps: { inline: true } },
    deps: {
      optimizer: {
        web: {
          enabled: true,
          include: [
            'use-sync-external-store/with-selector.js',
            'preact',
            'preact/hooks',
            'preact/compat',
            'preact/compat/client',
            'preact/jsx-runtime',
            'preact/jsx-dev-runtime',
            'preact/test-utils',
            'preact/debug',
            'preact/devtools',
            '@mantine/core',
            '@mantine/hooks',
            '@mantine/dates',
            '@mantine/dropzone',
            '@tabler/icons-react',
            'react-router',
            '@reduxjs/toolkit',
            '@reduxjs/toolkit/query/react',
            'react-redux',
            'react-hook-form',
            '@hookform/resolvers/zod',
            'dayjs',
            'zod',
            '@testing-library/react',
            '@testing-library/user-event',
            'react-toastify',
          ],
        },
      },
    },
    // Forms typed key by key with user-event under jsdom take several seconds on a loaded 2-core
    // machine (the API tests run beside them); the timeout only stops a hung test.
    testTimeout: 20_000,
  },
});
