import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Pure modules (no `.server` suffix) and the engines must not reach for I/O: the screener,
// backtest and metrics engines are tested and benchmarked alone.
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

// The layers of app/services, lowest first: a folder may import from its own folder and from
// lower layers only, so no two folders can import each other. Below every folder sit the shared
// files at the top of app/services (configuration, dates, statistics, worker threads); above them all, the files
// that compose the process (start-up and the job registry). A new folder must be given a layer
// here; docs/ARCHITECTURE.md explains the layers. Services never import the pages (app/ui,
// app/routes, app/*.tsx): types the pages and the services share live in services.
// tests/unit/import-graph.test.ts checks the same properties on the whole import graph.
const SERVICE_LAYERS = [
  ['http'],
  ['db', 'mail', 'storage'],
  ['jobs', 'market'],
  ['metrics', 'billing'],
  ['auth', 'screener', 'data-browser', 'market-overview'],
  ['company', 'watchlist'],
  // Imports rebuild every page's derived data (company and market-overview tables) after a change.
  ['imports'],
  ['backtest', 'admin'],
  // Rendered pages kept per reader: checks the reader with the auth guard, keys by the market store.
  ['page-cache'],
];
const SERVICE_BASE_FILES = ['config.server.ts', 'dates.ts', 'stats.ts', 'worker-threads.server.ts'];
const SERVICE_COMPOSITION_FILES = ['api-operations.ts', 'app-jobs.server.ts', 'startup.server.ts'];

function serviceBoundaries() {
  const entries = readdirSync('app/services', { withFileTypes: true });
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  const files = entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)).map((e) => e.name);
  const layerOf = new Map(SERVICE_LAYERS.flatMap((names, layer) => names.map((n) => [n, layer])));
  const unplaced = [
    ...folders.filter((f) => !layerOf.has(f)),
    ...files.filter((f) => !SERVICE_BASE_FILES.includes(f) && !SERVICE_COMPOSITION_FILES.includes(f)),
  ];
  if (unplaced.length > 0) throw new Error(`eslint.config.js: place app/services/${unplaced[0]} in SERVICE_LAYERS or the file lists`);
  const folder = (name) => `services/${name}`;
  const elements = [
    ...folders.map((name) => ({ type: folder(name), pattern: `app/services/${name}`, partialMatch: false })),
    { type: 'pages', pattern: 'app/ui', partialMatch: false },
    { type: 'pages', pattern: 'app/routes', partialMatch: false },
  ];
  const fileCategories = [
    { category: 'services-base', pattern: `app/services/{${SERVICE_BASE_FILES.join(',')}}` },
    { category: 'services-composition', pattern: `app/services/{${SERVICE_COMPOSITION_FILES.join(',')}}` },
    { category: 'pages', pattern: 'app/*.tsx' },
  ];
  const pages = [{ element: { type: 'pages' } }, { file: { categories: 'pages' } }];
  const composition = { file: { categories: 'services-composition' } };
  const policies = [
    ...folders.map((name) => ({
      from: { element: { type: folder(name) } },
      disallow: {
        to: [
          { element: { types: { anyOf: folders.filter((n) => n !== name && layerOf.get(n) >= layerOf.get(name)).map(folder) } } },
          composition,
          ...pages,
        ],
      },
    })),
    {
      from: { file: { categories: 'services-base' } },
      disallow: { to: [{ element: { types: { anyOf: folders.map(folder) } } }, composition, ...pages] },
    },
    { from: { file: { categories: 'services-composition' } }, disallow: { to: pages } },
  ];
  return { elements, fileCategories, policies };
}
const layering = serviceBoundaries();

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'build-*/**',
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
    files: ['app/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layering.elements,
      'boundaries/files': layering.fileCategories,
      'import/resolver': { [path.resolve('scripts/lint/resolve-app-imports.cjs')]: {} },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: layering.policies,
          message:
            'app/services layers: a folder imports only from lower layers and never from the pages (see SERVICE_LAYERS in eslint.config.js)',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**', '**/*.test.ts', '**/*.test.tsx', '*.config.*'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        Buffer: 'readonly',
        Headers: 'readonly',
        Response: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
);
