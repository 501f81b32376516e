import { concatPriceColumns, pricesOfSecurities, type PriceColumns } from '../store/market-columns';
import type { CorporateActionRecord, SecurityRecord, TickerPeriodRecord } from '../store/records';
import { concatCodedRows, type CodedRows } from '../store/typed-columns';
import { generateCompany } from './company';
import type { DemoUniverse } from './universe';

// A batch of demo companies as the store's writer takes it: the small tables as records, prices
// and facts (almost all of the data) as typed columns, so that a generator thread can build the
// batch and hand its arrays over without a copy (batches.server.ts).

export type DemoBatch = {
  securities: SecurityRecord[];
  tickerHistory: TickerPeriodRecord[];
  actions: CorporateActionRecord[];
  prices: PriceColumns;
  facts: CodedRows;
  counts: { prices: number; facts: number; actions: number };
};

/**
 * Companies generated at once while a batch is built: their rows as objects are what a batch
 * holds at its largest (200 companies × 25 years at once took the generator thread to ~600 MB).
 */
const GROUP = 20;

/** Companies `from` to `to` (exclusive, in the plan's order) of the universe, generated and made columns. */
export function demoBatch(universe: DemoUniverse, from: number, to: number): DemoBatch {
  const batch: Omit<DemoBatch, 'prices' | 'facts'> = {
    securities: [],
    tickerHistory: [],
    actions: [],
    counts: { prices: 0, facts: 0, actions: 0 },
  };
  const prices: PriceColumns[] = [];
  const facts: CodedRows[] = [];
  for (let at = from; at < to; at += GROUP) {
    const companies = universe.plan.companies
      .slice(at, Math.min(to, at + GROUP))
      .map((c) => generateCompany(universe.plan, universe.factors, c));
    for (const c of companies) {
      batch.securities.push(c.security);
      batch.tickerHistory.push(...c.tickerHistory);
      batch.actions.push(...c.actions);
      batch.counts.prices += c.prices.day.length;
      batch.counts.facts += c.facts.rows;
      batch.counts.actions += c.actions.length;
    }
    prices.push(pricesOfSecurities(companies.map((c) => c.prices)));
    facts.push(...companies.map((c) => c.facts));
  }
  return { ...batch, prices: concatPriceColumns(prices), facts: concatCodedRows(facts) };
}

/** The buffers of a batch's typed columns, to move it to another thread without a copy. */
export function batchBuffers(batch: DemoBatch): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of [...batch.prices.table, ...batch.facts.columns]) {
    if (c.kind === 'varchar') continue;
    out.add(c.values.buffer as ArrayBuffer);
    if (c.kind !== 'double' && c.nulls) out.add(c.nulls.buffer as ArrayBuffer);
  }
  return [...out];
}
