import type { MetricSnapshot } from '../../metrics/engine/types';
import type { Expr } from '../expression';

// Arithmetic over metric columns compiled to closures once per snapshot, so a rule costs a few
// array reads per row. NaN (n/a) propagates through every operation, so a missing input can
// never make a rule pass; division by zero gives n/a too, not ±Infinity.

export type RowFn = (row: number) => number;

export function metricColumn(snapshot: MetricSnapshot, id: string): Float64Array {
  return snapshot.values[id] ?? new Float64Array(snapshot.permatickers.length).fill(NaN);
}

export function compileExpr(e: Expr, snapshot: MetricSnapshot): RowFn {
  switch (e.t) {
    case 'num': {
      const v = e.value;
      return () => v;
    }
    case 'metric': {
      const col = metricColumn(snapshot, e.id);
      return (r) => col[r];
    }
    case 'neg': {
      const a = compileExpr(e.arg, snapshot);
      return (r) => -a(r);
    }
    case 'bin': {
      const a = compileExpr(e.left, snapshot);
      const b = compileExpr(e.right, snapshot);
      switch (e.op) {
        case '+':
          return (r) => a(r) + b(r);
        case '-':
          return (r) => a(r) - b(r);
        case '*':
          return (r) => a(r) * b(r);
        case '/':
          return (r) => {
            const d = b(r);
            return d === 0 ? NaN : a(r) / d;
          };
      }
      break;
    }
    case 'call': {
      const args = e.args.map((x) => compileExpr(x, snapshot));
      const [a, b] = args;
      switch (e.fn) {
        case 'abs':
          return (r) => Math.abs(a(r));
        case 'log':
          return (r) => {
            const v = a(r);
            return v > 0 ? Math.log(v) : NaN;
          };
        case 'sqrt':
          return (r) => {
            const v = a(r);
            return v >= 0 ? Math.sqrt(v) : NaN;
          };
        // Math.min(NaN, x) is NaN, so n/a still propagates.
        case 'min':
          return (r) => Math.min(a(r), b(r));
        case 'max':
          return (r) => Math.max(a(r), b(r));
      }
    }
  }
  throw new Error('unreachable expression node');
}
