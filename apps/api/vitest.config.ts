import { defineProject, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The API's tests run in two projects. `api` (this file): the test files share their worker's
 * process and its loaded modules (`isolate: false`), as loading the app's code took about half of
 * each file's time; every file still builds its own app on its own fresh database (test/harness.ts),
 * and a file that changes something process-wide puts it back in its afterAll.
 * `api-isolated` (vitest.isolated.config.ts): the files listed in ISOLATED, each with a fresh copy of
 * the app's modules, because they replace one of them with vi.mock (a race's protection switched
 * off: a shared copy would not be replaced, or would stay replaced) or patch process-wide modules
 * (tracing: OpenTelemetry).
 */
export const ISOLATED = [
  'test/check-in.int.test.ts',
  'test/octo.int.test.ts',
  'test/orders.int.test.ts',
  'test/owner-race.int.test.ts',
  'test/payment-links.int.test.ts',
  'test/payments-race.int.test.ts',
  'test/regenerate-lock-order.int.test.ts',
  'test/settlements.int.test.ts',
  'test/tracing.int.test.ts',
];

export const apiTest: NonNullable<TestProjectInlineConfiguration['test']> = {
  environment: 'node',
  globalSetup: ['./test/global-setup.ts'],
  env: { TZ: 'UTC' },
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineProject({
  test: {
    ...apiTest,
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...ISOLATED],
    isolate: false,
  },
});
