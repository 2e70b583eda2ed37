import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests run against the built app, started the way `npm start` starts it
 * (dist/server.js, PGlite, demo data) on a temporary data folder and its own port, beside a
 * local SMTP sink, OpenID Connect provider and fake of Stripe's API (apps/web/e2e/support/server.mjs).
 * The access token lives 4 seconds, so every test also runs through silent refreshes.
 *
 * E2E_WORKERS sets how many workers run files side by side (default 1: on two cores the
 * software-rendered browser and the server already keep both busy, and two workers took as long
 * with every step twice as slow). Each worker has a server of its own (its own database, demo
 * data, mail folder and ports): the tests of a file run in order on one worker, and files never
 * share data with a file of another worker.
 *
 * This file is read by the runner and again by each worker: a worker (TEST_PARALLEL_INDEX set)
 * points its helpers (support/helpers.ts: E2E_PORT, MAIL_DIR) and baseURL at its own server.
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
const BASE_PORT = Number(process.env.E2E_BASE_PORT ?? 3107);
const work = process.env.E2E_WORK_DIR ?? mkdtempSync(path.join(tmpdir(), 'tourdesk-e2e-'));
process.env.E2E_WORK_DIR = work;

const portOf = (server: number) => BASE_PORT + 10 * server;
const mailDirOf = (server: number) => path.join(work, `mail-${server}`);
const mine = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
process.env.E2E_PORT = String(portOf(mine));
process.env.MAIL_DIR = mailDirOf(mine);

function server(index: number) {
  const port = portOf(index);
  return {
    command: 'node apps/web/e2e/support/server.mjs',
    url: `http://localhost:${port}/api/health/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      DATA_DIR: path.join(work, `data-${index}`),
      MAIL_DIR: mailDirOf(index),
      SMTP_PORT: String(port + 1),
      OIDC_PORT: String(port + 2),
      OEMBED_PORT: String(port + 3),
      // The fake Stripe (its API for the server's SDK, its hosted pages for the browser).
      STRIPE_PORT: String(port + 4),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      ACCESS_TOKEN_TTL_SECONDS: '4',
      // An e-mail the mail server refuses is tried once more after a second, then shown as failed.
      EMAIL_RETRY_LIMIT: '1',
      EMAIL_RETRY_DELAY_SECONDS: '1',
      // Every customer of these tests comes from 127.0.0.1, as a store's customers behind one shared
      // address (a hotel's network, a carrier's NAT) do: the store's per-address limits are raised as
      // such an operator would raise them. A pay-on-site order still always carries a solved challenge.
      STORE_CARTS_PER_ADDRESS: '1000',
      STORE_LINES_PER_ADDRESS: '2000',
      STORE_ORDERS_PER_ADDRESS: '500',
      STORE_CHALLENGE_AFTER_CARTS: '1000',
      STORE_CHALLENGE_AFTER_LINES: '2000',
      STORE_CHALLENGE_AFTER_ORDERS: '500',
      // The translator's QA aid (README): the store also answers in the pseudo-locale at /s/{slug}/en-XA/,
      // which store-pseudo-locale.spec.ts walks for text that is not in the catalog.
      STORE_PSEUDO_LOCALE: '1',
      // The webhook receiver of webhooks.spec.ts runs on this machine (127.0.0.1): allowed as an
      // operator running everything on one machine allows it (README, configuration).
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
    stdout: 'pipe' as const,
  };
}

export default defineConfig({
  testDir: './apps/web/e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${portOf(mine)}`,
    browserName: 'chromium',
    contextOptions: { reducedMotion: 'reduce' },
    // The browser sits where the demo business does: its "today" is the organisation's, whatever the
    // machine's clock (between 23:00 and midnight UTC, Zurich is already on the next day).
    timezoneId: 'Europe/Zurich',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    screenshot: 'only-on-failure',
    // No transitions (the theme respects reduced motion): less painting in a software-rendered
    // browser, and no waiting for menus and modals to slide in.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
  },
  webServer: Array.from({ length: WORKERS }, (_, i) => server(i)),
});
