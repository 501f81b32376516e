import { describe, expect, it } from 'vitest';
import { epochDayOf } from '../store/typed-columns';
import { demoBatch } from './batch';
import { demoBatches, startDemoGenerator } from './batches.server';
import { securityPriceRecords } from '../store/market-columns';
import { factRecordsOf } from './company';
import { createDemoUniverse, demoCompanies } from './universe';

// The demo's batches come from a generator thread; they must hold exactly the companies the
// generator makes, as the writer's columns, in the plan's order.

const universe = createDemoUniverse({ companies: 47, years: 3, seed: 4 });

describe('demo batches', () => {
  it('have a thread of their own', async () => {
    const thread = await startDemoGenerator();
    expect(thread).not.toBeNull();
    await thread?.terminate();
  });

  it("from the generator thread are, batch for batch, this thread's, and hold every company's rows", async () => {
    const got = [];
    for await (const b of demoBatches(universe, 22)) got.push(b);
    // 47 companies in batches of 22: two full batches, each built from generation groups, and the rest.
    expect(got.map((b) => b.securities.length)).toEqual([22, 22, 3]);
    expect(got[1]).toEqual(demoBatch(universe, 22, 44));

    const companies = [...demoCompanies(universe)];
    expect(got.flatMap((b) => b.securities)).toEqual(companies.map((c) => c.security));
    expect(got.flatMap((b) => b.actions)).toEqual(companies.flatMap((c) => c.actions));
    const prices = companies.flatMap((c) => securityPriceRecords(c.prices));
    const perm = got.flatMap((b) => Array.from(b.prices.table[0].values as Int32Array));
    const day = got.flatMap((b) => Array.from(b.prices.table[1].values as Int32Array));
    const close = got.flatMap((b) => Array.from(b.prices.table[5].values as Float64Array));
    expect(perm).toEqual(prices.map((p) => p.permaticker));
    expect(day).toEqual(prices.map((p) => epochDayOf(p.date)));
    expect(close).toEqual(prices.map((p) => p.close));
    expect(got.reduce((n, b) => n + b.counts.prices, 0)).toBe(prices.length);

    // Facts: every text column decodes to the facts' values.
    const facts = companies.flatMap(factRecordsOf);
    const concept = got.flatMap((b) => Array.from(b.facts.columns[1].values as Int32Array, (code) => b.facts.texts[0][code - 1]));
    const accession = got.flatMap((b) =>
      Array.from(b.facts.columns[10].values as Int32Array, (code) => b.facts.texts[4][code - 1] ?? null),
    );
    expect(concept).toEqual(facts.map((f) => f.concept));
    expect(accession).toEqual(facts.map((f) => f.accession));
    expect(got.flatMap((b) => Array.from(b.facts.columns[2].values as Float64Array))).toEqual(facts.map((f) => f.value));
  });
});
