import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The repo explains itself: a comment points at a file a reader can open or states its reason.
// The product specification, the design brief, the style guide and the issue tracker live
// outside the repo, so no file here may cite their sections or numbers, and no name may carry
// an issue number (the e2e helpers were once named after one). The patterns are spelt with escapes so
// this file does not match itself.

const ROOT = path.resolve('.');
const SCANNED = ['app', 'scripts', 'tests', 'bench', 'docs', 'public', '.ci'];
const ROOT_FILES = /\.(ts|js|mjs|cjs|json|md)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'build', '.tmp', 'fixtures']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|css|html|sh|txt)$|^run$/;

const CITATION = new RegExp(
  [String.raw`\b(spec|design|style)\s*\u00a7`, String.raw`\bissues?\s*#?\s*\d+`, String.raw`\bissue\d`].join('|'),
  'i',
);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(e.name)) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(full));
    else if (TEXT.test(e.name)) out.push(full);
  }
  return out;
}

const scanned = [
  ...SCANNED.flatMap((d) => {
    try {
      return files(path.join(ROOT, d));
    } catch {
      return [];
    }
  }),
  ...readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isFile() && ROOT_FILES.test(e.name) && e.name !== 'package-lock.json')
    .map((e) => path.join(ROOT, e.name)),
];

describe('the map is in the repo', () => {
  it('scans the app, its scripts, tests and docs', () => {
    expect(scanned.filter((f) => f.includes(`${path.sep}app${path.sep}`)).length).toBeGreaterThan(300);
  });

  it('cites no section of the spec, DESIGN or STYLE and no issue number', () => {
    const hits: string[] = [];
    for (const file of scanned) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (CITATION.test(line)) hits.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });

  it('names no file or folder after an issue', () => {
    expect(scanned.map((f) => path.relative(ROOT, f)).filter((f) => /issue-?\d/i.test(f))).toEqual([]);
  });

  it('catches a citation when one is written', () => {
    for (const line of [
      '// see spec \u00a74',
      '/* DESIGN \u00a7 9 */',
      '// STYLE\u00a73',
      '// fixed in issue\u002012',
      '// issue\u0020#7',
      'issue\u0032-helpers',
    ])
      expect(CITATION.test(line), line).toBe(true);
    for (const line of ['// OpenID Connect Core \u00a75.3.2', '// this issues a token', '// an issue with the lock'])
      expect(CITATION.test(line), line).toBe(false);
  });
});

describe('routes are thin', () => {
  // A route parses its input, calls services and renders components from app/ui; past this
  // size it is doing a service's or a component's work.
  const MAX_ROUTE_LINES = 200;

  it(`has no route module over ${MAX_ROUTE_LINES} lines`, () => {
    const dir = path.join(ROOT, 'app', 'routes');
    const long = readdirSync(dir)
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => ({ f, lines: readFileSync(path.join(dir, f), 'utf8').split('\n').length }))
      .filter((r) => r.lines > MAX_ROUTE_LINES)
      .map((r) => `app/routes/${r.f}: ${r.lines} lines`);
    expect(long).toEqual([]);
  });
});
