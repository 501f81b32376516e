import { AsyncLocalStorage } from 'node:async_hooks';

// One page request runs several loaders (root, layouts, the page), and Remix hands each its own
// copy of the Request, so a memo keyed by the Request object would never be hit. The HTTP server
// (scripts/app-server.mjs) runs each page read (GET, HEAD) inside a scope instead, and work that
// every loader repeats — resolving the session's token to its user — is done once per scope.
// Requests that may write (an action runs before the loaders) get no scope: their loaders must
// see what the action changed (a sign-out, a new name), so they resolve afresh.

const scope = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `fn` (the app's handling of one page read) with its own memo. */
export function runInRequestScope<T>(fn: () => T): T {
  return scope.run(new Map(), fn);
}

/**
 * `compute()` once per request scope and key; outside a scope (a write, a test, the job worker),
 * every call computes. A rejection is kept as well: the same question gets the same answer.
 */
export function requestMemo<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const memo = scope.getStore();
  if (!memo) return compute();
  const known = memo.get(key) as Promise<T> | undefined;
  if (known) return known;
  const answer = compute();
  memo.set(key, answer);
  // Kept rejections are handled by whoever awaits them; this only stops an unhandled-rejection report.
  answer.catch(() => undefined);
  return answer;
}
