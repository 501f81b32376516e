import { toEpochDay } from '../../dates';
import type { MetricSnapshot } from '../../metrics/engine/types';
import type { PreparedUniverse, SecurityMeta } from '../../screener/engine/types';
import { indexOfEach } from './permaticker-index';

// The screener's prepareUniverse, with the per-security work done once for the whole backtest:
// descriptive fields are coded into dictionaries shared by every date, so each rebalance only
// joins its snapshot's rows in one merge walk. Same content as prepareUniverse (codes may differ,
// their strings do not; prepare-universe.test.ts holds the two together).

export function universePreparer(securities: readonly SecurityMeta[]): (snapshot: MetricSnapshot) => PreparedUniverse {
  const last = new Map<number, SecurityMeta>();
  for (const s of securities) last.set(s.permaticker, s);
  const metas = [...last.values()].sort((a, b) => a.permaticker - b.permaticker);
  const perms = Int32Array.from(metas, (m) => m.permaticker);
  const coder = () => {
    const index = new Map<string, number>();
    const dictionary: string[] = [];
    const code = (v: string | null) => {
      if (v === null || v === '') return -1;
      let c = index.get(v);
      if (c === undefined) {
        c = dictionary.length;
        dictionary.push(v);
        index.set(v, c);
      }
      return c;
    };
    return { code, dictionary };
  };
  const ex = coder();
  const sec = coder();
  const ind = coder();
  const exCodes = Int32Array.from(metas, (m) => ex.code(m.exchange));
  const secCodes = Int32Array.from(metas, (m) => sec.code(m.sector));
  const indCodes = Int32Array.from(metas, (m) => ind.code(m.industry));
  // Delisted as of day D when delisted by now and its last price day is on or before D.
  const delistedFrom = Float64Array.from(metas, (m) => (!m.isDelisted ? Number.POSITIVE_INFINITY : m.lastPriceDate === null ? Number.NEGATIVE_INFINITY : toEpochDay(m.lastPriceDate)));

  return (snapshot) => {
    const n = snapshot.permatickers.length;
    const known = new Uint8Array(n);
    const ticker = new Array<string>(n);
    const name = new Array<string>(n);
    const delistedAsOf = new Uint8Array(n);
    const e = new Int32Array(n);
    const s = new Int32Array(n);
    const i = new Int32Array(n);
    const meta = indexOfEach(snapshot.permatickers, perms);
    for (let r = 0; r < n; r++) {
      const j = meta[r];
      if (j < 0) {
        ticker[r] = String(snapshot.permatickers[r]);
        name[r] = '';
        e[r] = s[r] = i[r] = -1;
        continue;
      }
      known[r] = 1;
      ticker[r] = metas[j].ticker;
      name[r] = metas[j].name;
      e[r] = exCodes[j];
      s[r] = secCodes[j];
      i[r] = indCodes[j];
      if (delistedFrom[j] <= snapshot.day) delistedAsOf[r] = 1;
    }
    return {
      snapshot,
      size: n,
      known,
      ticker,
      name,
      exchange: { codes: e, dictionary: ex.dictionary },
      sector: { codes: s, dictionary: sec.dictionary },
      industry: { codes: i, dictionary: ind.dictionary },
      delistedAsOf,
    };
  };
}
