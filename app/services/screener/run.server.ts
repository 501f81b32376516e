import type { IsoDate } from '../dates';
import { DomainError, isDomainError } from '../http/errors';
import { MarketDataMissingError } from '../market/store/open-store.server';
import { loadSnapshot } from '../metrics/snapshots.server';
import type { MetricSnapshot } from '../metrics/engine/types';
import {
  compileScreen,
  explainSecurity,
  prepareUniverse,
  screenPage,
  type Explanation,
  type PreparedUniverse,
  type ScreenPage,
} from './engine';
import type { Screen } from './model';
import { loadSecurityMeta, NO_MARKET_DATA } from './securities.server';

// Running a screen for a page, the API or a CSV: load the snapshot as of the date and the
// securities, then hand both to the pure engine.

export type AsOf = IsoDate | 'latest';

let lastPrepared: { snapshot: MetricSnapshot; prepared: PreparedUniverse } | null = null;

/** The snapshot on or before the date (stored month-ends and latest), joined with securities. */
export async function preparedUniverse(asOf: AsOf): Promise<PreparedUniverse> {
  try {
    const [snapshot, securities] = await Promise.all([loadSnapshot(asOf, { exact: false }), loadSecurityMeta()]);
    if (lastPrepared?.snapshot === snapshot) return lastPrepared.prepared;
    const prepared = prepareUniverse(snapshot, securities);
    lastPrepared = { snapshot, prepared };
    return prepared;
  } catch (e) {
    if (e instanceof MarketDataMissingError) throw new DomainError(503, NO_MARKET_DATA);
    if (isDomainError(e) && e.status === 404) throw new DomainError(404, `No market data as of ${asOf}.`);
    throw e;
  }
}

export async function runScreen(screen: Screen, opts: { asOf?: AsOf; pageSize?: number | 'all' } = {}): Promise<ScreenPage> {
  const prepared = await preparedUniverse(opts.asOf ?? 'latest');
  return screenPage(compileScreen(screen), prepared, { pageSize: opts.pageSize });
}

export async function explainScreen(screen: Screen, permaticker: number, opts: { asOf?: AsOf } = {}): Promise<Explanation> {
  const prepared = await preparedUniverse(opts.asOf ?? 'latest');
  return explainSecurity(compileScreen(screen), prepared, permaticker);
}

/** Sectors, industries and exchanges present in the data (for the universe pickers). */
export async function universeChoices(): Promise<{ exchanges: string[]; sectors: string[]; industries: string[] }> {
  const securities = await loadSecurityMeta();
  const sorted = (f: (s: (typeof securities)[number]) => string | null) =>
    [...new Set(securities.map(f).filter((x): x is string => !!x))].sort();
  return { exchanges: sorted((s) => s.exchange), sectors: sorted((s) => s.sector), industries: sorted((s) => s.industry) };
}
