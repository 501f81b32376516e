import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Pure modules (no `.server` suffix) and the engines must not reach for I/O: the screener,
// backtest and metrics engines are tested and benchmarked alone (STYLE §3).
const ioModules = [
  'node:fs',
  'node:fs/promises',
  'fs',
  'node:child_process',
  'node:net',
  'node:http',
  'node:https',
  'pg',
  'better-sqlite3',
  '@duckdb/node-api',
  'ioredis',
  'bullmq',
  'nodemailer',
];
const noIo = {
  'no-restricted-imports': [
    'error',
    {
      paths: ioModules.map((name) => ({
        name,
        message: 'Engines and pure modules take data in and give results out: do I/O in a *.server.ts module.',
      })),
      patterns: [{ group: ['**/*.server', '**/*.server.ts'], message: 'A pure module cannot import a *.server module.' }],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'node_modules/**',
      'data/**',
      'tests/.tmp/**',
      'playwright-report/**',
      'test-results/**',
      '.cache/**',
      '**/*.tmp.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: [
      'app/services/screener/**/*.ts',
      'app/services/backtest/engine/**/*.ts',
      'app/services/metrics/engine/**/*.ts',
      'app/services/market/importers/**/parse*.ts',
    ],
    ignores: ['**/*.server.ts', '**/*.test.ts'],
    rules: noIo,
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**', '**/*.test.ts', '**/*.test.tsx', '*.config.*'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', Buffer: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
);
