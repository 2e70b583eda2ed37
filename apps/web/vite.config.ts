/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { parsedCatalogs } from './vite-catalogs';

/**
 * The back office runs on React 19 and React DOM 19, in the build, the dev server and the component
 * tests alike. The React plugin compiles the JSX (the automatic runtime) and, in `vite` (dev),
 * refreshes edited components in place (Fast Refresh).
 */
export default defineConfig({
  plugins: [react(), parsedCatalogs()],
  // The back office's catalogs arrive parsed (vite-catalogs.ts): FormatJS's parser stays out of the
  // bundle, in the build, the dev server and the component tests alike.
  resolve: { alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/lib/no-parser.js' }] },
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
    // A worker thread of its own for each file (vitest.config.ts: the forks pool reuses its processes).
    pool: 'threads',
    sequence: { groupOrder: 1 },
    env: { TZ: 'UTC' },
    css: false,
    // The large libraries, React and React DOM among them, are pre-bundled once, as the dev server
    // does, rather than loaded module by module from node_modules for every test file: on a 2-core
    // machine the web project ran in about 67 to 80 s so, against 77 to 85 s without.
    deps: {
      optimizer: {
        web: {
          enabled: true,
          include: [
            'react',
            'react/jsx-runtime',
            'react/jsx-dev-runtime',
            'react-dom',
            'react-dom/client',
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
    // machine (the API tests run beside them: the store settings form took 16 s alone and ran out of 20 s
    // in CI beside them); the timeout only stops a hung test.
    testTimeout: 60_000,
  },
});
