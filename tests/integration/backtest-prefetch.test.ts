import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefetchMarketInputs } from '~/services/backtest/market-inputs.server';
import { resetConfigForTests } from '~/services/config.server';
import { isDomainError } from '~/services/http/errors';
import { cacheFolder, cachedColumnBytes } from '~/services/market/store/column-cache.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { testMarket } from '../support/backtest-market';

// What the backtest compute process reads when it starts, before anyone asks for a backtest: the
// price panel (11 s to build from the 6,000 × 25 demo store, the largest part of a first run),
// the stored snapshots' index and the market caps every run reads. It builds their cache files
// for the store's version, so a user's first run reads none of them from the store.

const market = testMarket({ companies: 30, years: 3, seed: 9 });
const saved = process.env.MARKET_DB;

beforeAll(async () => {
  await market.build();
  process.env.MARKET_DB = market.file;
  resetConfigForTests();
}, 120_000);

afterAll(() => {
  if (saved === undefined) delete process.env.MARKET_DB;
  else process.env.MARKET_DB = saved;
  resetConfigForTests();
  market.remove();
});

describe('prefetching a backtest’s market inputs', () => {
  it('builds and keeps the price panel, the snapshot index and the market caps of the store’s version', async () => {
    const files = ['prices.col', 'snapshot-blocks.col', 'snapshot-values.market_cap.col'].map((f) =>
      path.join(cacheFolder(market.file), f),
    );
    for (const f of files) expect(existsSync(f), f).toBe(false);
    const before = cachedColumnBytes();
    await prefetchMarketInputs();
    for (const f of files) expect(existsSync(f), f).toBe(true);
    // Kept in memory too: 30 companies × 3 years of bars is tens of KB of columns.
    expect(cachedColumnBytes() - before).toBeGreaterThan(20_000);
  });

  it('fails with the store’s 503 when there is no market data (the compute process then starts all the same)', async () => {
    process.env.MARKET_DB = path.join(path.dirname(market.file), 'missing.duckdb');
    resetConfigForTests();
    closeMarketReader();
    try {
      const error = await prefetchMarketInputs().then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDomainError(error) && error.status).toBe(503);
    } finally {
      process.env.MARKET_DB = market.file;
      resetConfigForTests();
    }
  });
});
