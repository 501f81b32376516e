import { afterEach, beforeEach, vi } from 'vitest';

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
