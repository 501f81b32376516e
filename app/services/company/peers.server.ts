import type { IsoDate } from '../dates';
import { loadSnapshot } from '../metrics/snapshots.server';
import { readMarket, type MarketReadOptions } from '../market/store/read.server';
import { cachedAnswer } from '../market/store/answer-cache.server';
import type { CompanyHeader } from './company-pages.server';
import { PEER_METRICS, selectPeers, type PeerCandidate, type Peers } from './peers';

/**
 * A company's peers as of a date (latest when null), with their multiples read from the nearest
 * stored metric snapshot on or before it: the one the screener uses for that date. Kept per
 * store version (answer-cache.server.ts). Shared: do not mutate.
 */
export async function companyPeers(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions = {}): Promise<Peers> {
  if (company.sector === null && company.industry === null) return { date: null, basis: null, peers: [] };
  const reader = await readMarket(options);
  return cachedAnswer(reader.file, ['peers', company.permaticker, asOf], () => readPeers(company, asOf, options));
}

async function readPeers(company: CompanyHeader, asOf: IsoDate | null, options: MarketReadOptions): Promise<Peers> {
  const reader = await readMarket(options);
  const candidates = await reader.all<PeerCandidate>(
    `SELECT permaticker, ticker, name, sector, industry FROM securities
      WHERE permaticker <> $1 AND (sector = $2 OR industry = $3)`,
    [company.permaticker, company.sector ?? '', company.industry ?? ''],
  );
  if (candidates.length === 0) return { date: null, basis: null, peers: [] };
  const snapshot = await loadSnapshot(asOf ?? 'latest', { exact: false, marketDb: options.file, metrics: [...PEER_METRICS] });
  const peers = selectPeers(
    company,
    candidates.map((c) => ({ ...c, permaticker: Number(c.permaticker) })),
    snapshot,
  );
  const basis = peers.length === 0 ? null : peers[0].match;
  return { date: snapshot.date, basis, peers };
}
