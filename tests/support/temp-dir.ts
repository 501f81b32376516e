import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, onTestFinished } from 'vitest';

/** A fresh folder under the system's temp folder, removed when the test that asked for it ends. */
export function tempDirForTest(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A fresh folder for the tests of a file or `describe` block (where this is called, before its
 * other hooks): made before the first of them runs, removed after the last. Hooks run only when a
 * test does, so a suite whose tests are all skipped (its sample data absent) makes no folder and
 * leaves none behind, where one made when the file loads stayed in /tmp.
 */
export function tempDirForSuite(prefix: string): () => string {
  let dir: string | null = null;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  return () => {
    if (dir === null) throw new Error(`tempDirForSuite(${prefix}): read outside the suite's tests and hooks`);
    return dir;
  };
}
