import { rowOf } from '../../metrics/engine/snapshot';
import type { CompiledScreen } from './run';
import { matchScreen } from './run';
import type { Explanation, PreparedUniverse } from './types';
import { universeChecks, universeRows } from './universe';

// "Why is X in or out": every universe filter and every rule with the security's own values.
// Each rule is judged on its own (not only the first failure), so a person sees all that fails.

export function explainSecurity(compiled: CompiledScreen, p: PreparedUniverse, permaticker: number): Explanation {
  const row = rowOf(p.snapshot, permaticker);
  const base = { asOf: p.snapshot.date, permaticker };
  if (row < 0) {
    return { ...base, ticker: null, name: null, inSnapshot: false, universe: [], rules: [], passes: false, rank: null };
  }
  const universe = universeRows(compiled.screen.universe, p);
  const checks = universeChecks(compiled.screen.universe, p).map((c) => {
    const v = c.value(row);
    const passes = c.test(row);
    return { label: c.label, passes, values: [{ label: c.label, metric: null, value: v }], detail: v === null ? 'n/a' : String(v) };
  });
  if (!p.known[row]) checks.unshift({ label: 'Known security', passes: false, values: [], detail: 'no descriptive data' });
  const rules = compiled.rules.map((r) => r.bind(p, universe).check(row));
  const passes = checks.every((c) => c.passes) && rules.every((r) => r.passes);
  let rank: number | null = null;
  if (passes && compiled.screen.ranking.length > 0) {
    const m = matchScreen(compiled, p);
    rank = m.rank && !Number.isNaN(m.rank[row]) ? m.rank[row] : null;
  }
  return { ...base, ticker: p.ticker[row], name: p.name[row], inSnapshot: true, universe: checks, rules, passes, rank };
}
