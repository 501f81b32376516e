import { randomUUID } from 'node:crypto';
import { runBacktest } from '~/services/backtest/engine';
import { inputsOf, screenOf, weekdays } from '~/services/backtest/engine/test-panel';
import { encodePagedResult, toStored, type PartLoader, type StoredResult } from '~/services/backtest/stored-result';

// A backtest result long enough to span many stored parts when parts are made small (over 20,000
// holdings): 260 weekdays of daily rebalancing, top 100 of 130 names, one metric with gaps (null
// values), one company delisted mid-way.

export function longResult(): StoredResult {
  const days = weekdays('2022-01-03', 260);
  const securities = Array.from({ length: 130 }, (_, s) => {
    const p = s + 1;
    const end = p === 7 ? 120 : days.length;
    return {
      permaticker: p,
      ticker: `T${p}`,
      delisted: p === 7,
      tri: Array.from(days, (_, i) => (i < end ? 10 + p + Math.sin(i * 0.1 * p) * 2 + i * 0.01 : null)),
      metrics: {
        ret_12m: Array.from(days, (_, i) => Math.cos(i * 0.37 + p * 1.3)),
        pe_ttm: Array.from(days, (_, i) => ((i + p) % 11 === 0 ? null : 5 + ((p * 7 + i) % 40))),
      },
    };
  });
  const screen = screenOf([], { ranking: [{ metric: 'ret_12m', direction: 'desc', weight: 1 }], columns: ['pe_ttm'] });
  const result = runBacktest(inputsOf(days, securities, screen, { rebalance: 'daily', topN: 100, commissionBps: 3 }));
  return toStored(result, { securities: 129, statistics: result.statistics, equity: Array.from(result.equity), delistedExcluded: 1 });
}

/** The paged encoding of `r` kept in memory, with a loader that counts the parts it reads. */
export function inMemoryPaged(r: StoredResult, partRows: number) {
  // A key of its own, as every run's (readers keep decoded parts by key: stored-result.ts).
  const key = randomUUID();
  const encoded = encodePagedResult(r, key, partRows);
  const byId = new Map(encoded.parts.map((p) => [`${p.kind}:${p.seq}`, p.data]));
  const reads: string[] = [];
  const load: PartLoader = async (asked, kind, seq) => {
    const data = byId.get(`${kind}:${seq}`);
    if (asked !== key || data === undefined) throw new Error(`no part ${asked} ${kind} ${seq}`);
    reads.push(`${kind}:${seq}`);
    return data;
  };
  return { encoded, load, reads, key };
}
