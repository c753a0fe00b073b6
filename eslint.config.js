// The JavaScript linter (npm run lint). Layout is Prettier's (.prettierrc.json); these rules catch
// what a formatter does not: unused or undefined names, loose comparisons, lines a reader must
// scroll, and production code that reaches into a test folder.

import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'node_modules/',
      'results/',
      'test-results/',
      'playwright-report/',
      '**/target/',
      'client/codecs/generated/',
      'client/vendor/',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
      'no-var': 'error',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/tests/*', '**/tests/**'], message: 'production code imports no test helper' }] },
      ],
    },
  },
  {
    // The page's modules run in the browser.
    files: ['client/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Playwright specs and benchmarks hand functions to page.evaluate, which run in the page.
    files: ['experiments/**/*.js', 'experiments/**/*.mjs', 'client/tests/e2e/**/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Tests may import their own helpers.
    files: ['**/tests/**/*.js', '**/*.test.js', '**/*.spec.js'],
    rules: { 'no-restricted-imports': 'off' },
  },
];
