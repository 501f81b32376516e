import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prefetchMarketInputs, releaseMarketInputs } from '~/services/backtest/market-inputs.server';
import { resetConfigForTests } from '~/services/config.server';
import { isDomainError } from '~/services/http/errors';
import { cacheFolder, cachedColumnBytes } from '~/services/market/store/column-cache.server';
import { closeMarketReader } from '~/services/market/store/open-store.server';
import { pricePanel } from '~/services/market/store/price-panel.server';
import { testMarket } from '../support/backtest-market';
import { useTestMarket } from '../support/use-test-market';

// What the backtest compute process prepares when it starts, before anyone asks for a backtest:
// the cache files of the price panel (11 s to build from the 6,000 × 25 demo store, the largest
// part of a first run), the stored snapshots' index and the market caps every run reads, so a
// user's first run reads files, not the store.

const market = testMarket({ companies: 30, years: 3, seed: 9 });
useTestMarket(market);

describe('prefetching a backtest’s market inputs', () => {
  it('builds the cache files of the price panel, the snapshot index and the market caps, and lets go of them', async () => {
    const files = ['prices.col', 'snapshot-blocks.col', 'snapshot-values.market_cap.col'].map((f) =>
      path.join(cacheFolder(market.file), f),
    );
    for (const f of files) expect(existsSync(f), f).toBe(false);
    await prefetchMarketInputs();
    for (const f of files) expect(existsSync(f), f).toBe(true);
    // Let go of (the compute process does it before its first run): a server whose users never
    // backtest holds no price panel.
    expect(cachedColumnBytes()).toBeGreaterThan(20_000);
    releaseMarketInputs();
    expect(cachedColumnBytes()).toBe(0);
    // Files already there are not built again (nor read).
    const written = files.map((f) => statSync(f).mtimeMs);
    await prefetchMarketInputs();
    expect(files.map((f) => statSync(f).mtimeMs)).toEqual(written);
    expect(cachedColumnBytes()).toBe(0);
    // A backtest's read then comes from the files: the same panel as the store's.
    const panel = await pricePanel();
    expect(panel.days.length).toBeGreaterThan(30 * 200);
    expect(cachedColumnBytes()).toBeGreaterThan(20_000);
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
