import { getMetric } from '../../metrics/catalogue';
import { formatMetricValue } from '../../metrics/format';
import { parseRule, type Expr } from '../expression';
import { ruleToText, type Rule } from '../model';
import { COMPARATORS, keepBetween, keepComparing, keepWhere } from './compare';
import { compileExpr, metricColumn } from './compile-expression';
import { beyondCut, groupCuts, groupPositions, inTopPercent, keepBeyondCut, type GroupPositions } from './rank-within-group';
import type { CheckResult, PreparedUniverse } from './types';
import { codesOf } from './universe';

// Each rule kind compiled to a row test (the hot path) and an explanation (one row, on demand).
// Parsing happens once per screen (compileRule); binding to a snapshot's columns happens once per
// date (bind), and is cheap.

export type BoundRule = {
  /** Whether a row of the universe passes (rows outside it are never asked). */
  test: (row: number) => boolean;
  /** The hot path: `test` over many universe rows, the passing ones written to `out` (may be `rows`); returns their count. */
  keep: (rows: Int32Array, out: Int32Array) => number;
  /** Pass or fail of any row, explained. */
  check: (row: number) => CheckResult;
};
export type CompiledRule = { rule: Rule; text: string; bind: (p: PreparedUniverse, universe: Int32Array) => BoundRule };

const nul = (v: number): number | null => (Number.isNaN(v) ? null : v);

function show(metric: string, v: number): string {
  const def = getMetric(metric);
  return def ? formatMetricValue(def, nul(v)) : Number.isNaN(v) ? 'n/a' : String(v);
}

function naNote(values: number[]): string {
  return values.some((v) => Number.isNaN(v)) ? ' (n/a never passes)' : '';
}

export function compileRule(rule: Rule): CompiledRule {
  const text = ruleToText(rule);
  const label = text;
  switch (rule.kind) {
    case 'value': {
      const cmp = COMPARATORS[rule.op];
      const { metric, value } = rule;
      return {
        rule,
        text,
        bind: (p) => {
          const col = metricColumn(p.snapshot, metric);
          return {
            test: (r) => cmp(col[r], value),
            keep: (rows, out) => keepComparing(rule.op, col, value, rows, out),
            check: (r) => ({
              label,
              passes: cmp(col[r], value),
              values: [{ label: metric, metric, value: nul(col[r]) }],
              detail: `${metric} is ${show(metric, col[r])}${naNote([col[r]])}`,
            }),
          };
        },
      };
    }
    case 'between': {
      const { metric, min, max } = rule;
      return {
        rule,
        text,
        bind: (p) => {
          const col = metricColumn(p.snapshot, metric);
          const test = (r: number) => col[r] >= min && col[r] <= max;
          return {
            test,
            keep: (rows, out) => keepBetween(col, min, max, rows, out),
            check: (r) => ({
              label,
              passes: test(r),
              values: [{ label: metric, metric, value: nul(col[r]) }],
              detail: `${metric} is ${show(metric, col[r])}${naNote([col[r]])}`,
            }),
          };
        },
      };
    }
    case 'category': {
      const { field, op, values } = rule;
      return {
        rule,
        text,
        bind: (p) => {
          const column = p[field];
          const codes = codesOf(column, values);
          const wantIn = op === 'in';
          // A security without a sector is neither in nor out of a list: it does not pass.
          const test = (r: number) => column.codes[r] >= 0 && codes.has(column.codes[r]) === wantIn;
          return {
            test,
            keep: (rows, out) => keepWhere(test, rows, out),
            check: (r) => {
              const v = column.codes[r] >= 0 ? column.dictionary[column.codes[r]] : null;
              return { label, passes: test(r), values: [{ label: field, metric: null, value: v }], detail: `${field} is ${v ?? 'n/a'}` };
            },
          };
        },
      };
    }
    case 'compare': {
      const cmp = COMPARATORS[rule.op];
      const { left, right, factor } = rule;
      return {
        rule,
        text,
        bind: (p) => {
          const a = metricColumn(p.snapshot, left);
          const b = metricColumn(p.snapshot, right);
          const test = (r: number) => cmp(a[r], factor * b[r]);
          return {
            test,
            keep: (rows, out) => keepWhere(test, rows, out),
            check: (r) => ({
              label,
              passes: test(r),
              values: [
                { label: left, metric: left, value: nul(a[r]) },
                { label: right, metric: right, value: nul(b[r]) },
              ],
              detail: `${left} is ${show(left, a[r])}, ${factor === 1 ? '' : `${factor} × `}${right} is ${show(right, factor * b[r])}${naNote([a[r], b[r]])}`,
            }),
          };
        },
      };
    }
    case 'expr': {
      const ast = parseRule(rule.expr);
      if (ast.t !== 'compare') throw new Error('expression rules are comparisons (checked by the schema)');
      const cmp = COMPARATORS[ast.op];
      const leftAst: Expr = ast.left;
      const rightAst: Expr = ast.right;
      return {
        rule,
        text,
        bind: (p) => {
          const a = compileExpr(leftAst, p.snapshot);
          const b = compileExpr(rightAst, p.snapshot);
          const test = (r: number) => cmp(a(r), b(r));
          return {
            test,
            keep: (rows, out) => keepWhere(test, rows, out),
            check: (r) => {
              const [x, y] = [a(r), b(r)];
              const fmt = (v: number) => (Number.isNaN(v) ? 'n/a' : String(Number(v.toPrecision(6))));
              return {
                label,
                passes: test(r),
                values: [
                  { label: 'left side', metric: null, value: nul(x) },
                  { label: 'right side', metric: null, value: nul(y) },
                ],
                detail: `left side is ${fmt(x)}, right side is ${fmt(y)}${naNote([x, y])}`,
              };
            },
          };
        },
      };
    }
    case 'rank': {
      const { metric, side, percent, within } = rule;
      return {
        rule,
        text,
        bind: (p, universe) => {
          const col = metricColumn(p.snapshot, metric);
          const group = within === 'universe' ? null : p[within].codes;
          const top = side === 'top';
          // The row test compares with one cut per group; explanations count positions (on demand).
          const cuts = groupCuts(universe, col, group, top, percent);
          const test =
            group === null ? (r: number) => beyondCut(col[r], 0, cuts, top) : (r: number) => beyondCut(col[r], group[r], cuts, top);
          let positions: GroupPositions | null = null;
          return {
            test,
            keep: (rows, out) => keepBeyondCut(col, group, cuts, top, rows, out),
            check: (r) => {
              const pos = (positions ??= groupPositions(p.size, universe, col, group, top));
              const groupName =
                within === 'universe' ? 'the universe' : p[within].codes[r] >= 0 ? p[within].dictionary[p[within].codes[r]] : null;
              const b = pos.better[r];
              const detail = Number.isNaN(b)
                ? groupName === null
                  ? `no ${within} (not ranked)`
                  : `${metric} is n/a (not ranked)`
                : `${metric} is ${show(metric, col[r])}: ${side} ${b + 1} of ${pos.groupSize[r]} in ${groupName}`;
              return {
                label,
                passes: inTopPercent(b, pos.groupSize[r], percent),
                values: [{ label: metric, metric, value: nul(col[r]) }],
                detail,
              };
            },
          };
        },
      };
    }
  }
}
