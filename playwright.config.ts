import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests run against the built app, started the way `npm start` starts it
 * (dist/server.js, PGlite, demo data) on a temporary data folder and its own port, beside a
 * local SMTP sink, OpenID Connect provider and fake of Stripe's API (apps/web/e2e/support/server.mjs).
 * The access token lives 4 seconds, so every test also runs through silent refreshes.
 */
const PORT = Number(process.env.E2E_PORT ?? 3107);
const work = process.env.E2E_WORK_DIR ?? mkdtempSync(path.join(tmpdir(), 'tourdesk-e2e-'));
process.env.E2E_WORK_DIR = work;
process.env.MAIL_DIR = path.join(work, 'mail');
process.env.E2E_PORT = String(PORT);

export default defineConfig({
  testDir: './apps/web/e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node apps/web/e2e/support/server.mjs',
    url: `http://localhost:${PORT}/api/health/`,
    reuseExistingServer: false,
    timeout: 90_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: path.join(work, 'data'),
      MAIL_DIR: process.env.MAIL_DIR,
      SMTP_PORT: String(PORT + 1),
      OIDC_PORT: String(PORT + 2),
      OEMBED_PORT: String(PORT + 3),
      // The fake Stripe (its API for the server's SDK, its hosted pages for the browser).
      STRIPE_PORT: String(PORT + 4),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      ACCESS_TOKEN_TTL_SECONDS: '4',
      // An e-mail the mail server refuses is tried once more after a second, then shown as failed.
      EMAIL_RETRY_LIMIT: '1',
      EMAIL_RETRY_DELAY_SECONDS: '1',
    },
    stdout: 'pipe',
  },
});
