import { toEpochDay } from '../../dates';
import type { MetricSnapshot } from '../../metrics/engine/types';
import type { PreparedUniverse, SecurityMeta } from '../../screener/engine/types';
import { indexOfEach } from './permaticker-index';

// The screener's prepareUniverse, with the per-security work done once for the whole backtest:
// descriptive fields are coded into dictionaries shared by every date, so each rebalance only
// joins its snapshot's rows in one merge walk. Same content as prepareUniverse (codes may differ,
// their strings do not; prepare-universe.test.ts holds the two together).

/** What a run's preparation derives from its securities alone: the same for every run on the same list. */
type CodedSecurities = {
  perms: Int32Array;
  exchange: Coded;
  sector: Coded;
  industry: Coded;
  /** The epoch day from which each is delisted (+∞: listed). */
  delistedFrom: Float64Array;
  anyDelisted: boolean;
  tickers: string[];
  names: string[];
};
type Coded = { codes: Int32Array; dictionary: string[] };

/** Per securities list (the store's is one cached array for every run on it). */
const codedLists = new WeakMap<readonly SecurityMeta[], CodedSecurities>();

function codedSecurities(securities: readonly SecurityMeta[]): CodedSecurities {
  const known = codedLists.get(securities);
  if (known) return known;
  const last = new Map<number, SecurityMeta>();
  for (const s of securities) last.set(s.permaticker, s);
  const metas = [...last.values()].sort((a, b) => a.permaticker - b.permaticker);
  const coded = (field: (m: SecurityMeta) => string | null): Coded => {
    const index = new Map<string, number>();
    const dictionary: string[] = [];
    const codes = Int32Array.from(metas, (m) => {
      const v = field(m);
      if (v === null || v === '') return -1;
      let c = index.get(v);
      if (c === undefined) {
        c = dictionary.length;
        dictionary.push(v);
        index.set(v, c);
      }
      return c;
    });
    return { codes, dictionary };
  };
  // Delisted as of day D when delisted by now and its last price day is on or before D.
  const delistedFrom = Float64Array.from(metas, (m) =>
    !m.isDelisted ? Number.POSITIVE_INFINITY : m.lastPriceDate === null ? Number.NEGATIVE_INFINITY : toEpochDay(m.lastPriceDate),
  );
  const out: CodedSecurities = {
    perms: Int32Array.from(metas, (m) => m.permaticker),
    exchange: coded((m) => m.exchange),
    sector: coded((m) => m.sector),
    industry: coded((m) => m.industry),
    delistedFrom,
    anyDelisted: delistedFrom.some((d) => d !== Number.POSITIVE_INFINITY),
    tickers: metas.map((m) => m.ticker),
    names: metas.map((m) => m.name),
  };
  codedLists.set(securities, out);
  return out;
}

/** Prepares each date's snapshot; what it returns is valid until the next call. */
export function universePreparer(securities: readonly SecurityMeta[]): (snapshot: MetricSnapshot) => PreparedUniverse {
  const { perms, exchange: ex, sector: sec, industry: ind, delistedFrom, anyDelisted, tickers, names } = codedSecurities(securities);
  const exCodes = ex.codes;
  const secCodes = sec.codes;
  const indCodes = ind.codes;

  // Buffers reused from one date to the next: a prepared universe is only read until the next
  // call (a rebalance keeps copies of what it records).
  let capacity = -1;
  let known = new Uint8Array(0);
  let delistedAsOf = new Uint8Array(0);
  let e = new Int32Array(0);
  let s = new Int32Array(0);
  let i = new Int32Array(0);
  let meta = new Int32Array(0);
  const ticker: string[] = [];
  const name: string[] = [];
  // The rows the buffers were last filled for: most dates of a run have the same rows as the
  // date before (an index's members), and then only the delisted-as-of flags can change.
  let filledFor = new Int32Array(0);
  return (snapshot) => {
    const n = snapshot.permatickers.length;
    if (sameRows(filledFor, snapshot.permatickers)) {
      if (anyDelisted) for (let r = 0; r < n; r++) delistedAsOf[r] = meta[r] >= 0 && delistedFrom[meta[r]] <= snapshot.day ? 1 : 0;
      return prepared(snapshot);
    }
    if (n > capacity) {
      capacity = n;
      known = new Uint8Array(n);
      delistedAsOf = new Uint8Array(n);
      e = new Int32Array(n);
      s = new Int32Array(n);
      i = new Int32Array(n);
      meta = new Int32Array(n);
    }
    ticker.length = n;
    name.length = n;
    indexOfEach(snapshot.permatickers, perms, meta);
    for (let r = 0; r < n; r++) {
      const j = meta[r];
      if (j < 0) {
        known[r] = 0;
        delistedAsOf[r] = 0;
        ticker[r] = String(snapshot.permatickers[r]);
        name[r] = '';
        e[r] = s[r] = i[r] = -1;
        continue;
      }
      known[r] = 1;
      ticker[r] = tickers[j];
      name[r] = names[j];
      e[r] = exCodes[j];
      s[r] = secCodes[j];
      i[r] = indCodes[j];
      delistedAsOf[r] = delistedFrom[j] <= snapshot.day ? 1 : 0;
    }
    filledFor = Int32Array.from(snapshot.permatickers);
    return prepared(snapshot);
  };

  function prepared(snapshot: MetricSnapshot): PreparedUniverse {
    const n = snapshot.permatickers.length;
    return {
      snapshot,
      size: n,
      known: known.subarray(0, n),
      ticker,
      name,
      exchange: { codes: e.subarray(0, n), dictionary: ex.dictionary },
      sector: { codes: s.subarray(0, n), dictionary: sec.dictionary },
      industry: { codes: i.subarray(0, n), dictionary: ind.dictionary },
      delistedAsOf: delistedAsOf.subarray(0, n),
    };
  }
}

function sameRows(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
