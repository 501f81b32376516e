import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDemoUniverse } from '~/services/imports/load-demo.server';
import { silentProgress } from '~/services/imports/progress.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { buildSnapshots } from '~/services/metrics/snapshots.server';

// A small real market for backtest tests: the demo generator (listings, delistings, filings,
// splits, dividends) written to DuckDB with its month-end snapshots, as `npm run data -- demo`
// does, in a temp folder.

export type TestMarket = { file: string; build: () => Promise<void>; remove: () => void };

/** The file's path is known at once (for env patches); build() writes it. */
export function testMarket(options = { companies: 60, years: 5, seed: 7 }): TestMarket {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-backtest-market-'));
  const file = path.join(dir, 'market.duckdb');
  return {
    file,
    build: async () => {
      await loadDemoUniverse(file, options, silentProgress, {
        beforePublish: (work) => buildSnapshots({ marketDb: work, progress: silentProgress }),
      });
    },
    remove: () => {
      closeMarketReader();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
