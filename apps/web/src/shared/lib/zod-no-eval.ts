/**
 * zod compiles its object parsers with `new Function` unless told not to, and the back office's
 * Content-Security-Policy forbids eval (Chromium reports each refusal as an issue). zod keeps its
 * settings on `globalThis.__zod_globalConfig` and takes an object already there (zod/v4/core's
 * config()), so setting it here costs the first load nothing, where importing config() from zod
 * brought about 4 kB gzip into it. Imported first by main.tsx, before any schema exists (zod reads
 * the setting when a schema is made); zod-no-eval.test.ts holds zod to it.
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
