import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterMarketDataChange } from '~/services/imports/post-import.server';
import { silentProgress } from '~/services/imports/progress.server';
import { importers } from '~/services/market/importers/index.server';
import { lineProgress } from '~/services/market/importers/testing/line-progress';
import { openMarketReader } from '~/services/market/store/open-store.server';
import { withMarketWriter } from '~/services/market/store/writer.server';
import { MARKET_RETURNS_SQL } from '~/services/metrics/store-loader.server';
import { tempDirForSuite } from '../support/temp-dir';

// The same files give the same store: two imports of the real S&P 500 panel sample, each with
// its snapshots and derived tables (market returns, beta, correlations), compared table by
// table, value for value. Parallel summation in DuckDB used to change the market's daily return
// in the 13th digit between runs.

const PANEL = path.resolve('../shared/data/prices/sp500_stocks_daily_2013-2018_sample.csv');
const FULL_PANEL = path.resolve('../shared/data/prices/sp500_stocks_daily_2013-2018.csv.gz');
const hasData = existsSync(PANEL);
if (!hasData) console.warn(`Skipping the re-import identity check: ${PANEL} is absent`);

const dir = tempDirForSuite('quarry-reimport-');

/** What differs between runs by design: when the import ran. */
const RUN_TABLES = new Set(['import_runs']);

async function importOnce(file: string): Promise<void> {
  await withMarketWriter(file, {}, (writer) =>
    importers.prices.run(['--skip-bad-rows', PANEL], { writer, progress: lineProgress(() => {}), env: {} }),
  );
  await afterMarketDataChange(file, silentProgress);
}

async function dump(file: string): Promise<Map<string, string>> {
  const reader = await openMarketReader(file);
  try {
    const tables = await reader.all<{ name: string }>(`SELECT table_name AS name FROM duckdb_tables() ORDER BY table_name`);
    const out = new Map<string, string>();
    for (const { name } of tables) {
      if (RUN_TABLES.has(name)) continue;
      const rows = await reader.all<Record<string, unknown>>(`SELECT * FROM "${name}" ORDER BY ALL`);
      // Doubles written with every bit (17 digits), blobs as hex: a difference in the last bit shows.
      out.set(
        name,
        JSON.stringify(rows, (_k, v: unknown) =>
          typeof v === 'number'
            ? v.toPrecision(17)
            : v instanceof Uint8Array
              ? Buffer.from(v).toString('hex')
              : typeof v === 'bigint'
                ? String(v)
                : v,
        ),
      );
    }
    return out;
  } finally {
    reader.close();
  }
}

describe.skipIf(!hasData)('re-import identity', () => {
  it('two imports of the same files give the same store, every table value for value', async () => {
    const a = path.join(dir(), 'a.duckdb');
    const b = path.join(dir(), 'b.duckdb');
    await importOnce(a);
    await importOnce(b);
    const [da, db] = [await dump(a), await dump(b)];
    expect([...da.keys()]).toEqual([...db.keys()]);
    expect([...da.keys()]).toEqual(expect.arrayContaining(['prices', 'metric_market_returns']));
    for (const [name, text] of da) expect(db.get(name) === text, `table ${name}`).toBe(true);
  }, 600_000);
});

describe.skipIf(!existsSync(FULL_PANEL))('the market return is summed in one order', () => {
  it('the full panel (619k prices, several row groups read in parallel): the same bits on every run', async () => {
    const file = path.join(dir(), 'full.duckdb');
    await withMarketWriter(file, {}, (writer) =>
      importers.prices.run(['--skip-bad-rows', FULL_PANEL], { writer, progress: lineProgress(() => {}), env: {} }),
    );
    const reader = await openMarketReader(file);
    try {
      const runs = new Set<string>();
      for (let k = 0; k < 6; k++) {
        const rows = await reader.all<{ ret: number }>(`SELECT ret FROM (${MARKET_RETURNS_SQL}) ORDER BY date`);
        expect(rows.length).toBeGreaterThan(1200);
        runs.add(rows.map((r) => r.ret.toPrecision(17)).join(','));
      }
      expect(runs.size).toBe(1);
    } finally {
      reader.close();
    }
  }, 600_000);
});
