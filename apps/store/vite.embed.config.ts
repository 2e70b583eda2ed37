import { defineConfig } from 'vite';

/**
 * embed.js: one small classic script (IIFE) that operators paste on their own site. It is served
 * at the fixed address /embed.js (no hash), so it is built on its own beside the store's files.
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    manifest: false,
    sourcemap: false,
    target: 'es2019',
    lib: { entry: 'src/embed.ts', formats: ['iife'], name: 'TourdeskEmbed', fileName: () => 'embed.js' },
  },
});
