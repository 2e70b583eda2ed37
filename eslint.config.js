import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'playwright-report/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // The back office's service worker runs in its own global scope.
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // The web store (React) runs in the browser, and its pages on the server too.
    files: ['apps/store/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Its bundle carries no back-office code, nor the contracts' schemas (zod): types only.
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@tourdesk/contracts', allowTypeImports: true, message: 'The store imports only types from the contracts (their schemas would pull zod into its bundle).' }],
          patterns: [{ regex: 'apps/web', message: 'The web store imports no back-office code.' }],
        },
      ],
    },
  },
  {
    // Features never import each other, nor the app: code flows shared -> features -> app.
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\.)', message: 'Features do not import each other; move shared code to src/shared.' },
            { regex: '^\\.\\./\\.\\./app/', message: 'Features do not import the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '/(features|app)/', message: 'Shared code does not import features or the app.' }] }],
    },
  },
  {
    // The orders module uses availability (slots, their locks, carts); availability never uses orders.
    files: ['apps/api/src/modules/availability/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '/orders/', message: 'availability does not import orders: orders depends on availability, one way.' }] }],
    },
  },
  {
    files: ['scripts/**', '**/build.mjs'],
    rules: { 'no-console': 'off' },
  },
);
