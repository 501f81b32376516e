import { LRUCache } from 'lru-cache';
import { storeVersion } from './open-store.server';

// What the read services computed from one published market store (a company tab's data, a
// metric's history), kept so that a repeat costs a lookup. Keyed by the store's version
// (open-store.server.ts `storeVersion`: every publish of a new snapshot is a new file, hence a
// new version) and the question asked (company, as-of date, options). Bounded by an estimate of
// the answers' size, least recently used first out; concurrent requests for the same missing
// answer share one computation. A failure is not kept. Answers are shared: callers never mutate them.

/** Budget of the cached answers, in bytes of their JSON text (a fair estimate of their heap size). */
export const ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

type Stored = { value: unknown };
type Compute = () => Promise<unknown>;

const cache = new LRUCache<string, Stored, Compute>({
  maxSize: ANSWER_CACHE_BYTES,
  // Twice the JSON length (UTF-16 strings, boxed numbers) plus the entry itself.
  sizeCalculation: (s, key) => Math.max(1, 2 * (JSON.stringify(s.value)?.length ?? 0) + 2 * key.length + 200),
  fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
});

/** The version whose answers the cache holds, per store file: a new one drops the old answers. */
const versions = new Map<string, string>();

/**
 * The answer to `question` about the store at `file`, computed once per store version.
 * `question` parts are joined into the key, so they must be plain values (numbers, strings, null).
 */
export async function cachedAnswer<T>(
  file: string,
  question: readonly (string | number | boolean | null | undefined)[],
  compute: () => Promise<T>,
): Promise<T> {
  const version = storeVersion(file);
  const previous = versions.get(file);
  if (previous !== version) {
    if (previous !== undefined) for (const key of [...cache.keys()]) if (key.startsWith(`${previous}\u0000`)) cache.delete(key);
    versions.set(file, version);
  }
  const key = `${version}\u0000${question.map((q) => (q === null || q === undefined ? '\u0001' : String(q))).join('\u0000')}`;
  const stored = await cache.fetch(key, { context: compute });
  return stored!.value as T;
}

/** How many answers and estimated bytes are kept (tests, diagnostics). */
export function answerCacheStats(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cache.calculatedSize };
}

/** Tests drop every kept answer. */
export function clearAnswerCache(): void {
  cache.clear();
  versions.clear();
}
