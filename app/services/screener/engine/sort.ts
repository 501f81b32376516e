import type { Sort } from '../model';
import { metricColumn } from './compile-expression';
import type { CodedColumn, PreparedUniverse } from './types';

// Display sort of result rows. n/a sorts last in both directions; ties fall back to the ticker
// and then the permaticker so a page never reshuffles between requests.

function byText(values: (r: number) => string | null, dir: 1 | -1) {
  return (a: number, b: number): number => {
    const x = values(a);
    const y = values(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return x < y ? -dir : x > y ? dir : 0;
  };
}

function coded(c: CodedColumn) {
  return (r: number) => (c.codes[r] >= 0 ? c.dictionary[c.codes[r]] : null);
}

export function sortRows(rows: Int32Array, p: PreparedUniverse, sort: Sort, rank: Float64Array | null): Int32Array {
  const dir = sort.dir === 'asc' ? 1 : -1;
  const perm = p.snapshot.permatickers;
  const tie = (a: number, b: number) => (p.ticker[a] < p.ticker[b] ? -1 : p.ticker[a] > p.ticker[b] ? 1 : perm[a] - perm[b]);
  let primary: (a: number, b: number) => number;
  switch (sort.key) {
    case 'ticker':
      primary = (a, b) => dir * tie(a, b);
      break;
    case 'name':
      primary = byText((r) => p.name[r] || null, dir);
      break;
    case 'sector':
    case 'industry':
    case 'exchange':
      primary = byText(coded(p[sort.key]), dir);
      break;
    default: {
      const col = sort.key === 'rank' ? (rank ?? new Float64Array(p.size).fill(NaN)) : metricColumn(p.snapshot, sort.key);
      primary = (a, b) => {
        const x = col[a];
        const y = col[b];
        const xn = Number.isNaN(x);
        const yn = Number.isNaN(y);
        if (xn || yn) return xn === yn ? 0 : xn ? 1 : -1;
        return dir * (x - y);
      };
    }
  }
  const out = Int32Array.from(rows);
  out.sort((a, b) => primary(a, b) || tie(a, b));
  return out;
}
