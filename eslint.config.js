import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const forbid = (...patterns) => ['error', { patterns: patterns.map(([group, message]) => ({ group, message })) }];

// Test code (fakes, factories, fixtures) lives in test folders; only tests may import it.
const testFiles = (side) => [`src/${side}/**/*.test.{ts,tsx}`, `src/${side}/test/**`];
const noTestCode = [['**/test/**', './test', '../test', '**/*.test', '**/*.test.*'], 'Test code lives under test folders and only tests may import it.'];
const noWebInServer = [['**/web/**'], 'The server must not import web code; share it through src/shared.'];
const noServerInWeb = [['**/server/**', '../server/*'], 'The web app must not import server code; share it through src/shared.'];
const noSidesInShared = [['**/web/**', '**/server/**'], 'src/shared holds pure rules and strings: it imports neither side.'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': forbid(noServerInWeb, noTestCode),
    },
  },
  { files: ['src/server/**/*.ts'], rules: { 'no-restricted-imports': forbid(noWebInServer, noTestCode) } },
  { files: ['src/shared/**/*.ts'], rules: { 'no-restricted-imports': forbid(noSidesInShared, noTestCode) } },
  { files: ['scripts/**', 'bin/**'], rules: { 'no-restricted-imports': forbid(noTestCode) } },
  // Tests keep each side's boundary but may import test code.
  { files: testFiles('web'), rules: { 'no-restricted-imports': forbid(noServerInWeb) } },
  { files: testFiles('server'), rules: { 'no-restricted-imports': forbid(noWebInServer) } },
  { files: testFiles('shared'), rules: { 'no-restricted-imports': forbid(noSidesInShared) } },
);
