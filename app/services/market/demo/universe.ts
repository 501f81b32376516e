import { generateCompany, type DemoCompany } from './company';
import { generateFactors, type Factors } from './factors';
import { planDemoUniverse, type DemoOptions, type DemoPlan } from './plan';

// The demo universe generator: pure and seeded (no clock, no Math.random), so the same options
// always give the same data and the same snapshot id. Companies come one at a time so a
// 6,000-company universe never has to sit in memory at once.

export type DemoUniverse = { plan: DemoPlan; factors: Factors };

export const DEFAULT_DEMO_OPTIONS = { companies: 1500, years: 20, seed: 1 } as const;
export const BENCHMARK_DEMO_OPTIONS = { companies: 6000, years: 25, seed: 1 } as const;

export function createDemoUniverse(options: DemoOptions): DemoUniverse {
  const plan = planDemoUniverse(options);
  return { plan, factors: generateFactors(plan.options.seed, plan.days.length) };
}

export function* demoCompanies(universe: DemoUniverse): Generator<DemoCompany> {
  for (const company of universe.plan.companies) yield generateCompany(universe.plan, universe.factors, company);
}

export type { DemoCompany, DemoOptions };
