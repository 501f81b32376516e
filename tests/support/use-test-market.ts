import { afterAll, beforeAll } from 'vitest';
import { resetConfigForTests } from '~/services/config.server';
import type { TestMarket } from './backtest-market';

// Vitest only (it registers hooks): backtest-market.ts stays free of vitest, for the Playwright specs.

/** Builds `market` before the file's tests and points MARKET_DB at it; puts everything back after them. */
export function useTestMarket(market: TestMarket): void {
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
}
