import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONCEPT_IDS } from '../market/store/schema';
import { UniverseEvaluator } from './engine/evaluate';
import type { SecurityInput } from './engine/types';
import { listSecurities, loadBlock } from './store-loader.server';
import { writeFixtureStore } from './testing/fixture-store.server';
import { syntheticUniverse } from './testing/synthetic-universe';

// The block loader reads prices in the order they were written and sorts facts on integer keys
// (store-loader.server.ts): what it hands the engine must not depend on the order rows sit in.

let dir: string;
let ordered: string;
let shuffled: string;

async function withStore<T>(file: string, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    return await work(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

const loadAll = (file: string) => withStore(file, async (conn) => loadBlock(conn, await listSecurities(conn)));

/** A security's facts as (filed, accession, concept) in load order. */
function factKeys(s: SecurityInput): [number, string | null, string][] {
  return Array.from(s.facts.filed, (filed, k) => [filed, s.facts.accession?.[k] ?? null, CONCEPT_IDS[s.facts.concept[k]]]);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-loader-'));
  ordered = path.join(dir, 'ordered.duckdb');
  shuffled = path.join(dir, 'shuffled.duckdb');
  await writeFixtureStore(ordered, syntheticUniverse({ securities: 6, years: 3, seed: 7 }));
  await withStore(ordered, async (conn) => {
    // One day with two filings and facts without an accession, written in no particular order.
    const first = (await listSecurities(conn))[0].permaticker;
    const fact = (concept: string, accession: string | null) =>
      `(${first}, '${concept}', 1, 'USD', NULL, DATE '2024-06-30', 2024, 'Q2', '10-Q', DATE '2024-08-09', ${accession ? `'${accession}'` : 'NULL'}, 'fixture', NULL)`;
    await conn.run(
      `INSERT INTO facts VALUES ${[
        fact('revenue', '0000000001-24-000009'),
        fact('net_income', '0000000001-24-000002'),
        fact('revenue', null),
        fact('cash', '0000000001-24-000002'),
        fact('net_income', null),
        fact('cash', '0000000001-24-000009'),
      ].join(', ')}`,
    );
  });
  copyFileSync(ordered, shuffled);
  await withStore(shuffled, async (conn) => {
    // Rows as an import that merges late leaves them: not in (permaticker, date) order.
    for (const t of ['prices', 'facts']) {
      await conn.run(`CREATE TABLE ${t}_shuffled AS SELECT * FROM ${t} ORDER BY hash(rowid * 7919)`);
      await conn.run(`DELETE FROM ${t}`);
      await conn.run(`INSERT INTO ${t} SELECT * FROM ${t}_shuffled`);
      await conn.run(`DROP TABLE ${t}_shuffled`);
    }
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loading a block of securities', () => {
  it('gives each security its prices in date order, however the rows were written', async () => {
    const [a, b] = await Promise.all([loadAll(ordered), loadAll(shuffled)]);
    expect(a.length).toBe(6);
    for (const s of b) {
      expect(s.dates.length).toBeGreaterThan(500);
      for (let k = 1; k < s.dates.length; k++) expect(s.dates[k]).toBeGreaterThan(s.dates[k - 1]);
    }
    expect(b).toEqual(a);
  });

  it('orders facts by filing day, accession (none first) and concept, as the texts sort', async () => {
    const [a, b] = await Promise.all([loadAll(ordered), loadAll(shuffled)]);
    // 2024-08-09 as an epoch day.
    const sameDay = factKeys(a[0]).filter(([filed]) => filed === 19944);
    expect(sameDay.map(([, acc, concept]) => `${acc ?? '-'} ${concept}`)).toEqual([
      '- net_income',
      '- revenue',
      '0000000001-24-000002 cash',
      '0000000001-24-000002 net_income',
      '0000000001-24-000009 cash',
      '0000000001-24-000009 revenue',
    ]);
    for (const s of a) {
      const keys = factKeys(s);
      const sorted = [...keys].sort(
        (x, y) =>
          x[0] - y[0] ||
          (x[1] === y[1] ? 0 : x[1] === null ? -1 : y[1] === null ? 1 : x[1] < y[1] ? -1 : 1) ||
          (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0),
      );
      expect(keys).toEqual(sorted);
    }
    expect(b.map(factKeys)).toEqual(a.map(factKeys));
  });

  it('without accessions loads the same facts in the same order, and every metric comes out the same', async () => {
    const withAcc = await loadAll(ordered);
    const without = await withStore(ordered, async (conn) => loadBlock(conn, await listSecurities(conn), { accessions: false }));
    expect(withAcc[0].facts.accession?.filter((a) => a !== null).length).toBeGreaterThan(10);
    for (const s of without) expect(s.facts.accession).toBeNull();
    expect(without.map((s) => ({ ...s, facts: { ...s.facts, accession: null } }))).toEqual(
      withAcc.map((s) => ({ ...s, facts: { ...s.facts, accession: null } })),
    );
    const day = withAcc[0].dates[withAcc[0].dates.length - 1];
    const a = new UniverseEvaluator({ securities: withAcc, market: null }).evaluate(day);
    const b = new UniverseEvaluator({ securities: without, market: null }).evaluate(day);
    expect(Object.values(b.values).some((v) => v.some(Number.isFinite))).toBe(true);
    expect(b).toEqual(a);
  });
});
