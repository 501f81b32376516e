import { config } from '../../config.server';
import { withMarketCaching } from '../../http/market-caching';
import { marketReader, storeVersion } from './open-store.server';

// The version of the market data an answer was computed from: the store's content hash (the
// snapshot id, snapshot-id.server.ts) and the engine version of its stored metrics (both in the
// meta table). Read once per published file; the entity tag of every market data answer.

const cache = new Map<string, Promise<string | null>>();

/** `<snapshot id>.e<metrics engine version>`, or null without a store or a snapshot id. */
export function marketDataVersion(file: string = config().marketDb): Promise<string | null> {
  const key = storeVersion(file);
  let hit = cache.get(key);
  if (!hit) {
    hit = (async () => {
      const reader = await marketReader(file);
      const rows = await reader.all<{ key: string; value: string }>(
        `SELECT key, value FROM meta WHERE key IN ('snapshot_id', 'metrics_engine_version')`,
      );
      const get = (k: string) => rows.find((r) => r.key === k)?.value ?? null;
      const id = get('snapshot_id');
      return id === null ? null : `${id}.e${get('metrics_engine_version') ?? 'none'}`;
    })();
    cache.clear();
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

/** A market data answer with its caching headers (http/market-caching.ts), tagged with the store's version. */
export function marketAnswer(request: Request, answer: () => Promise<Response>): Promise<Response> {
  return withMarketCaching(request, () => marketDataVersion(), answer);
}
