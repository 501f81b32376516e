import { z } from 'zod';
import { isMetricId } from '../metrics/catalogue';
import {
  CATEGORY_FIELDS,
  COMPARE_OPS,
  ExpressionError,
  RANK_GROUPS,
  literalValue,
  parseRule,
  printExpr,
  printRule,
  type Expr,
  type RuleAst,
} from './expression';

// The screen: a universe, rules, a ranking, columns, sort, limit and page. Versioned
// (`v: 1`) because screens are stored and shared; a later shape gets `v: 2` and a migration.
// Metric ids are the catalogue's stable ids.

export const MAX_RULES = 50;
export const MAX_COLUMNS = 30;
export const MAX_RANK_PARTS = 10;
export const MAX_LIMIT = 10_000;
export const MAX_PAGE = 100_000;
export const PAGE_SIZE = 50;
const MAX_LIST = 100;

const metricId = z
  .string()
  .max(64)
  .refine(
    (id) => isMetricId(id),
    (id) => ({ message: `Unknown metric "${id}"` }),
  );
// -0 and 0 are the same bound; keeping one makes a screen's JSON and URL canonical.
const positiveZero = (n: number) => (n === 0 ? 0 : n);
const finite = z.number().finite().transform(positiveZero);
const nonNegative = z.number().finite().nonnegative().transform(positiveZero);
const name = z.string().trim().min(1).max(100);
const nameList = z.array(name).max(MAX_LIST);

export const CompareOpSchema = z.enum(COMPARE_OPS);

export const ValueRuleSchema = z.object({ kind: z.literal('value'), metric: metricId, op: CompareOpSchema, value: finite });
export const BetweenRuleSchema = z
  .object({ kind: z.literal('between'), metric: metricId, min: finite, max: finite })
  .refine((r) => r.min <= r.max, { message: 'The lower bound is above the upper bound', path: ['max'] });
export const CategoryRuleSchema = z.object({
  kind: z.literal('category'),
  field: z.enum(CATEGORY_FIELDS),
  op: z.enum(['in', 'not_in']),
  values: z.array(name).min(1).max(MAX_LIST),
});
export const CompareRuleSchema = z.object({
  kind: z.literal('compare'),
  left: metricId,
  op: CompareOpSchema,
  factor: finite,
  right: metricId,
});
export const ExprRuleSchema = z.object({ kind: z.literal('expr'), expr: z.string().max(500) }).superRefine((r, ctx) => {
  try {
    const ast = parseRule(r.expr);
    if (ast.t !== 'compare')
      ctx.addIssue({
        code: 'custom',
        message: 'An expression rule compares two expressions (e.g. "(revenue_ttm - cost_of_revenue_ttm) / total_assets > 0.1")',
        path: ['expr'],
      });
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'Invalid expression', path: ['expr'] });
  }
});
export const RankRuleSchema = z.object({
  kind: z.literal('rank'),
  metric: metricId,
  side: z.enum(['top', 'bottom']),
  percent: z.number().gt(0).lte(100),
  within: z.enum(RANK_GROUPS),
});

export const RuleSchema = z.union([
  ValueRuleSchema,
  BetweenRuleSchema,
  CategoryRuleSchema,
  CompareRuleSchema,
  ExprRuleSchema,
  RankRuleSchema,
]);
export type Rule = z.infer<typeof RuleSchema>;

export const UniverseSchema = z
  .object({
    exchanges: nameList.default([]),
    sectors: nameList.default([]),
    industries: nameList.default([]),
    marketCapMin: nonNegative.nullable().default(null),
    marketCapMax: nonNegative.nullable().default(null),
    includeDelisted: z.boolean().default(false),
  })
  .refine((u) => u.marketCapMin === null || u.marketCapMax === null || u.marketCapMin <= u.marketCapMax, {
    message: 'The minimum market cap is above the maximum',
    path: ['marketCapMax'],
  });
export type Universe = z.infer<typeof UniverseSchema>;

export const RankPartSchema = z.object({ metric: metricId, direction: z.enum(['asc', 'desc']), weight: z.number().positive().max(1000) });
export type RankPart = z.infer<typeof RankPartSchema>;

/** Sort keys: a metric id, or one of these columns. */
export const FIXED_SORT_KEYS = ['rank', 'ticker', 'name', 'sector', 'industry', 'exchange'] as const;
export const SortSchema = z.object({
  key: z.string().refine(
    (k) => (FIXED_SORT_KEYS as readonly string[]).includes(k) || isMetricId(k),
    (k) => ({ message: `Cannot sort by "${k}"` }),
  ),
  dir: z.enum(['asc', 'desc']),
});
export type Sort = z.infer<typeof SortSchema>;

export const ScreenSchema = z.object({
  v: z.literal(1).default(1),
  universe: UniverseSchema.default({}),
  rules: z.array(RuleSchema).max(MAX_RULES, `A screen has at most ${MAX_RULES} rules`).default([]),
  /** Empty: no ranking. One part: order by that metric. Several: weighted mean of percentile ranks. */
  ranking: z.array(RankPartSchema).max(MAX_RANK_PARTS).default([]),
  /** Extra columns after ticker, name and the metrics the rules read. */
  columns: z.array(metricId).max(MAX_COLUMNS).default([]),
  /** null: by rank when ranked, else by ticker. */
  sort: SortSchema.nullable().default(null),
  /** Keep only the best `limit` by ranking (top N). */
  limit: z.number().int().min(1).max(MAX_LIMIT).nullable().default(null),
  page: z.number().int().min(1).max(MAX_PAGE).default(1),
});
export type Screen = z.infer<typeof ScreenSchema>;
export type ScreenInput = z.input<typeof ScreenSchema>;

// ---------------------------------------------------------------------------------------------
// Rules as text: the readable form used in URLs and on the page.

function toExprMetric(id: string): Expr {
  return { t: 'metric', id };
}

export function ruleToAst(rule: Rule): RuleAst {
  switch (rule.kind) {
    case 'value':
      return { t: 'compare', left: toExprMetric(rule.metric), op: rule.op, right: { t: 'num', value: rule.value } };
    case 'between':
      return { t: 'between', metric: rule.metric, low: rule.min, high: rule.max };
    case 'category':
      return { t: 'category', field: rule.field, negate: rule.op === 'not_in', values: rule.values };
    case 'compare': {
      const right: Expr =
        rule.factor === 1
          ? toExprMetric(rule.right)
          : { t: 'bin', op: '*', left: { t: 'num', value: rule.factor }, right: toExprMetric(rule.right) };
      return { t: 'compare', left: toExprMetric(rule.left), op: rule.op, right };
    }
    case 'expr':
      return parseRule(rule.expr);
    case 'rank':
      return { t: 'rank', metric: rule.metric, side: rule.side, percent: rule.percent, within: rule.within };
  }
}

/** The simplest rule kind for a parsed rule (so `price > 1.5 * sma200` is a metric-vs-metric rule). */
export function astToRule(ast: RuleAst): Rule {
  switch (ast.t) {
    case 'between':
      return { kind: 'between', metric: ast.metric, min: ast.low, max: ast.high };
    case 'category':
      return { kind: 'category', field: ast.field, op: ast.negate ? 'not_in' : 'in', values: ast.values };
    case 'rank':
      return { kind: 'rank', metric: ast.metric, side: ast.side, percent: ast.percent, within: ast.within };
    case 'compare': {
      if (ast.left.t === 'metric') {
        const value = literalValue(ast.right);
        if (value !== null) return { kind: 'value', metric: ast.left.id, op: ast.op, value };
        if (ast.right.t === 'metric') return { kind: 'compare', left: ast.left.id, op: ast.op, factor: 1, right: ast.right.id };
        if (ast.right.t === 'bin' && ast.right.op === '*' && ast.right.right.t === 'metric') {
          const factor = literalValue(ast.right.left);
          if (factor !== null) return { kind: 'compare', left: ast.left.id, op: ast.op, factor, right: ast.right.right.id };
        }
      }
      return { kind: 'expr', expr: `${printExpr(ast.left)} ${ast.op} ${printExpr(ast.right)}` };
    }
  }
}

export function ruleToText(rule: Rule): string {
  return printRule(ruleToAst(rule));
}

/** Reads a rule typed by a person or found in a URL; throws ExpressionError with a column. */
export function ruleFromText(text: string): Rule {
  return astToRule(parseRule(text.trim()));
}

export function isExpressionError(e: unknown): e is ExpressionError {
  return e instanceof ExpressionError;
}

/** Metric ids a rule reads (for columns and explanations). */
export function ruleMetrics(rule: Rule): string[] {
  switch (rule.kind) {
    case 'value':
    case 'between':
    case 'rank':
      return [rule.metric];
    case 'compare':
      return rule.left === rule.right ? [rule.left] : [rule.left, rule.right];
    case 'category':
      return [];
    case 'expr': {
      const ast = parseRule(rule.expr);
      if (ast.t !== 'compare') return [];
      const out: string[] = [];
      collect(ast.left, out);
      collect(ast.right, out);
      return out;
    }
  }
}

function collect(e: Expr, out: string[]): void {
  if (e.t === 'metric' && !out.includes(e.id)) out.push(e.id);
  else if (e.t === 'neg') collect(e.arg, out);
  else if (e.t === 'bin') {
    collect(e.left, out);
    collect(e.right, out);
  } else if (e.t === 'call') for (const a of e.args) collect(a, out);
}

/** Every metric the screen's results show: rule metrics, ranking metrics, then chosen columns. */
/** How results are ordered when the screen names no sort: best rank first when ranked, else by ticker. */
export function displaySort(screen: Pick<Screen, 'sort' | 'ranking'>): Sort {
  return screen.sort ?? (screen.ranking.length > 0 ? { key: 'rank', dir: 'asc' } : { key: 'ticker', dir: 'asc' });
}

export function displayColumns(screen: Screen): string[] {
  const out: string[] = [];
  const add = (id: string) => {
    if (!out.includes(id)) out.push(id);
  };
  for (const r of screen.rules) for (const id of ruleMetrics(r)) add(id);
  for (const p of screen.ranking) add(p.metric);
  for (const c of screen.columns) add(c);
  if (out.length === 0) for (const id of DEFAULT_COLUMNS) add(id);
  return out.slice(0, MAX_COLUMNS + MAX_RULES);
}

export const DEFAULT_COLUMNS = ['price', 'market_cap', 'pe_ttm', 'ret_12m'];
