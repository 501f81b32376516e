import type { IsoDate } from '../dates';
import type { MetricSnapshot } from '../metrics/engine/types';
import { metricValue } from '../metrics/engine/snapshot';

// Pure: which companies the overview compares a company with. Peers share the industry first,
// then the sector; only companies the snapshot has a market cap for on its date count (listed
// then, with a price), the largest first, so a page as of 2015 never names a company listed later.

/** The multiples the peers table shows, in column order. */
export const PEER_METRICS = ['market_cap', 'pe_ttm', 'ev_ebitda_ttm', 'ps_ttm', 'revenue_growth_yoy'] as const;
export type PeerMetric = (typeof PEER_METRICS)[number];

export const PEER_LIMIT = 8;

export type PeerCandidate = {
  permaticker: number;
  ticker: string;
  name: string;
  sector: string | null;
  industry: string | null;
};

export type Peer = PeerCandidate & { match: 'industry' | 'sector'; values: Record<PeerMetric, number | null> };

export type Peers = {
  /** Date of the snapshot the values come from (on or before the page's date); null when none. */
  date: IsoDate | null;
  /** What the peers share with the company: its industry, its sector, or nothing known. */
  basis: 'industry' | 'sector' | null;
  peers: Peer[];
};

export function selectPeers(
  company: Pick<PeerCandidate, 'permaticker' | 'sector' | 'industry'>,
  candidates: readonly PeerCandidate[],
  snapshot: MetricSnapshot,
  limit = PEER_LIMIT,
): Peer[] {
  const ranked = (match: Peer['match']): Peer[] =>
    candidates
      .filter((c) => c.permaticker !== company.permaticker)
      .filter((c) =>
        match === 'industry'
          ? company.industry !== null && c.industry === company.industry
          : company.sector !== null && c.sector === company.sector && !(company.industry !== null && c.industry === company.industry),
      )
      .map((c) => ({
        ...c,
        match,
        values: Object.fromEntries(PEER_METRICS.map((id) => [id, metricValue(snapshot, c.permaticker, id)])) as Peer['values'],
      }))
      .filter((p) => p.values.market_cap !== null)
      .sort((a, b) => (b.values.market_cap as number) - (a.values.market_cap as number) || a.permaticker - b.permaticker);
  const industry = ranked('industry').slice(0, limit);
  return industry.length >= limit ? industry : [...industry, ...ranked('sector').slice(0, limit - industry.length)];
}
