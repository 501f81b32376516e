import { LRUCache } from 'lru-cache';
import type { StoredLightPart } from './stored-result';

// The light parts of stored results this process read or was handed lately, by their parts key (a
// run's own: the text stored under a key never changes). Unzipping and parsing a 25-year result's
// light part took ~7 ms of every request of its page. Bounded by their size; frozen: every
// request shares them.

const kept = new LRUCache<string, StoredLightPart>({ maxSize: 16 * 2 ** 20 });

export function keptLight(key: string): StoredLightPart | undefined {
  return kept.get(key);
}

/** Keeps a light part read back from its stored text, `bytes` long unzipped; returns it frozen. */
export function keepLight(key: string, light: StoredLightPart, bytes: number): StoredLightPart {
  const frozen = deepFreeze(light);
  kept.set(key, frozen, { size: Math.max(1, bytes) });
  return frozen;
}

/**
 * Keeps the light part a run hands over as it stores its result (run-job.server.ts), so the first
 * request to read that result (a client polling, the result page opened) does not unzip and parse
 * it from the database. Read under its key only once the row names that key, i.e. once stored; a
 * run whose store fails leaves an entry nothing reads, which the bound drops in time.
 */
export function keepHandedOverLight(key: string, light: StoredLightPart): void {
  keepLight(key, light, approximateBytes(light));
}

/** About what a value takes in memory: its typed arrays' bytes, 8 a number, 2 a character. */
function approximateBytes(value: unknown): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value === 'string') return 2 * value.length;
  if (typeof value !== 'object' || value === null) return 8;
  let n = 16;
  for (const v of Object.values(value)) n += approximateBytes(v);
  return n;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) if (typeof v === 'object') deepFreeze(v);
  }
  return value;
}
