import { defineProject } from 'vitest/config';
import { apiTest, ISOLATED } from './vitest.config';

/** The API's test files that need a fresh copy of the app's modules each (see vitest.config.ts). */
export default defineProject({
  test: {
    ...apiTest,
    name: 'api-isolated',
    include: ISOLATED,
    isolate: true,
  },
});
