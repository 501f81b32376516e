import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { METRIC_IDS } from '../metrics/catalogue';
import { printExpr, type Expr } from './expression';
import { ScreenSchema, type Screen } from './model';
import { screenFromSearchParams, screenToQuery } from './url';

// Any valid screen survives URL → screen → URL unchanged.

const metric = fc.constantFrom(...METRIC_IDS);
const num = fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true });
const op = fc.constantFrom('<', '<=', '>', '>=', '=', '!=' as const);
const word = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s.length > 0);

const expr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    num.map((value): Expr => ({ t: 'num', value: Math.abs(value) })),
    metric.map((id): Expr => ({ t: 'metric', id })),
    tie('e').map((arg): Expr => ({ t: 'neg', arg })),
    fc.record({ op: fc.constantFrom('+', '-', '*', '/' as const), left: tie('e'), right: tie('e') }).map((b): Expr => ({ t: 'bin', ...b })),
    tie('e').map((arg): Expr => ({ t: 'call', fn: 'abs', args: [arg] })),
  ),
})).e;

const rule = fc.oneof(
  fc.record({ kind: fc.constant('value' as const), metric, op, value: num }),
  fc.tuple(metric, num, num).map(([m, a, b]) => ({ kind: 'between' as const, metric: m, min: Math.min(a, b), max: Math.max(a, b) })),
  fc.record({
    kind: fc.constant('category' as const),
    field: fc.constantFrom('sector', 'industry', 'exchange' as const),
    op: fc.constantFrom('in', 'not_in' as const),
    values: fc.array(word, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('compare' as const), left: metric, op, factor: num, right: metric }),
  fc
    .record({ left: expr, op, right: expr })
    .map((x) => ({ kind: 'expr' as const, expr: `${printExpr(x.left)} ${x.op} ${printExpr(x.right)}` })),
  fc.record({
    kind: fc.constant('rank' as const),
    metric,
    side: fc.constantFrom('top', 'bottom' as const),
    percent: fc.integer({ min: 1, max: 100 }),
    within: fc.constantFrom('universe', 'sector', 'industry' as const),
  }),
);

const screen: fc.Arbitrary<Screen> = fc
  .record({
    universe: fc.record({
      exchanges: fc.array(word, { maxLength: 3 }),
      sectors: fc.array(word, { maxLength: 3 }),
      industries: fc.array(word, { maxLength: 3 }),
      marketCapMin: fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null }),
      marketCapMax: fc.option(fc.double({ min: 1e9, max: 1e13, noNaN: true }), { nil: null }),
      includeDelisted: fc.boolean(),
    }),
    rules: fc.array(rule, { maxLength: 8 }),
    ranking: fc.array(fc.record({ metric, direction: fc.constantFrom('asc', 'desc' as const), weight: fc.integer({ min: 1, max: 9 }) }), {
      maxLength: 3,
    }),
    columns: fc.uniqueArray(metric, { maxLength: 5 }),
    sort: fc.option(
      fc.record({ key: fc.oneof(metric, fc.constantFrom('rank', 'ticker', 'name')), dir: fc.constantFrom('asc', 'desc' as const) }),
      { nil: null },
    ),
    limit: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
    page: fc.integer({ min: 1, max: 500 }),
  })
  .map((s) => ScreenSchema.parse(s))
  .filter((s) => ScreenSchema.safeParse(s).success);

describe('screen URL round trip', () => {
  it('URL → screen → URL is the identity for any valid screen', () => {
    fc.assert(
      fc.property(screen, (s) => {
        const url = screenToQuery(s);
        const back = screenFromSearchParams(new URLSearchParams(url));
        expect(back.ok ? [] : back.errors).toEqual([]);
        expect(screenToQuery(back.screen)).toBe(url);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps rule kinds other than expressions exactly', () => {
    fc.assert(
      fc.property(screen, (s) => {
        const back = screenFromSearchParams(new URLSearchParams(screenToQuery(s)));
        if (!back.ok) throw new Error('did not parse');
        const simple = (x: Screen) => x.rules.filter((r) => r.kind !== 'expr' && r.kind !== 'compare' && r.kind !== 'value');
        expect(simple(back.screen)).toEqual(simple(s));
        expect(back.screen.universe).toEqual(s.universe);
        expect(back.screen.ranking).toEqual(s.ranking);
      }),
      { numRuns: 200 },
    );
  });
});
