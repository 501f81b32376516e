// Syntax trees of the screen language and their canonical printing. Printing is canonical
// (single spaces, minimal parentheses) so a rule read from a URL prints back to the same text.

export type ArithOp = '+' | '-' | '*' | '/';
export const COMPARE_OPS = ['<', '<=', '>', '>=', '=', '!='] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export const FUNCTIONS = { abs: 1, log: 1, sqrt: 1, min: 2, max: 2 } as const;
export type FunctionName = keyof typeof FUNCTIONS;
export const CATEGORY_FIELDS = ['sector', 'industry', 'exchange'] as const;
export type CategoryField = (typeof CATEGORY_FIELDS)[number];
export const RANK_GROUPS = ['universe', 'sector', 'industry'] as const;
export type RankGroup = (typeof RANK_GROUPS)[number];

export type Expr =
  | { t: 'num'; value: number }
  | { t: 'metric'; id: string }
  | { t: 'neg'; arg: Expr }
  | { t: 'bin'; op: ArithOp; left: Expr; right: Expr }
  | { t: 'call'; fn: FunctionName; args: Expr[] };

export type RuleAst =
  | { t: 'compare'; left: Expr; op: CompareOp; right: Expr }
  | { t: 'between'; metric: string; low: number; high: number }
  | { t: 'category'; field: CategoryField; negate: boolean; values: string[] }
  | { t: 'rank'; metric: string; side: 'top' | 'bottom'; percent: number; within: RankGroup };

const PRECEDENCE: Record<ArithOp, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };
const PREFIX_PRECEDENCE = 3;

export function formatNumber(n: number): string {
  return Object.is(n, -0) ? '0' : String(n);
}

/** Numeric value of a literal (`5`, `-5`), or null for anything else. */
export function literalValue(e: Expr): number | null {
  if (e.t === 'num') return e.value;
  if (e.t === 'neg' && e.arg.t === 'num') return -e.arg.value;
  return null;
}

export function printExpr(e: Expr, parent = 0, rightSide = false): string {
  switch (e.t) {
    case 'num':
      // A negative constant prints as a prefix minus, which binds tighter than anything.
      return e.value < 0 ? printExpr({ t: 'neg', arg: { t: 'num', value: -e.value } }, parent, rightSide) : formatNumber(e.value);
    case 'metric':
      return e.id;
    case 'neg':
      return `-${printExpr(e.arg, PREFIX_PRECEDENCE)}`;
    case 'call':
      return `${e.fn}(${e.args.map((a) => printExpr(a)).join(', ')})`;
    case 'bin': {
      const p = PRECEDENCE[e.op];
      const text = `${printExpr(e.left, p)} ${e.op} ${printExpr(e.right, p, true)}`;
      // Left-associative: a right operand of equal precedence keeps its parentheses (a - (b - c)).
      const needs = p < parent || (p === parent && rightSide);
      return needs ? `(${text})` : text;
    }
  }
}

export function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function printRule(r: RuleAst): string {
  switch (r.t) {
    case 'compare':
      return `${printExpr(r.left)} ${r.op} ${printExpr(r.right)}`;
    case 'between':
      return `${r.metric} between ${formatNumber(r.low)} and ${formatNumber(r.high)}`;
    case 'category':
      return `${r.field} ${r.negate ? 'not in' : 'in'} [${r.values.map(quote).join(', ')}]`;
    case 'rank':
      return `${r.metric} in ${r.side} ${formatNumber(r.percent)}% of ${r.within}`;
  }
}

/** Metric ids an expression reads, in first-use order. */
export function metricsOf(e: Expr, out: string[] = []): string[] {
  switch (e.t) {
    case 'metric':
      if (!out.includes(e.id)) out.push(e.id);
      break;
    case 'neg':
      metricsOf(e.arg, out);
      break;
    case 'bin':
      metricsOf(e.left, out);
      metricsOf(e.right, out);
      break;
    case 'call':
      for (const a of e.args) metricsOf(a, out);
      break;
    case 'num':
      break;
  }
  return out;
}
