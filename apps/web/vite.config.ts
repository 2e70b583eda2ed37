/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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
    // Forms typed key by key with user-event under jsdom take several seconds on a loaded 2-core
    // machine (the API tests run beside them); the timeout only stops a hung test.
    testTimeout: 20_000,
  },
});
