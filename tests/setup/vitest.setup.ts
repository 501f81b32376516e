import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, vi } from 'vitest';

// Test files run side by side against one Redis: each file's rate-limit counts and job queue
// get keys of their own (REDIS_PREFIX, which JOBS_QUEUE_PREFIX follows), as deployments sharing
// a Redis server do. A test that sets its own prefix still can; processes it starts inherit this.
process.env.REDIS_PREFIX ??= `test-${randomBytes(4).toString('hex')}`;

// A console.error during a test fails it: errors must be asserted, not printed.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    const text = errors.map((a) => a.map((x) => (x instanceof Error ? x.stack : String(x))).join(' ')).join('\n');
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});
