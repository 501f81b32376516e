import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshSnapshotId } from '../market/store/snapshot-id.server';
import { loadTradingCalendar } from './store-loader.server';
import { writeFixtureStore } from './testing/fixture-store.server';
import { syntheticUniverse } from './testing/synthetic-universe';
import { computeTradingCalendar, storedTradingCalendar, storeTradingCalendar } from './trading-calendar.server';

// The stored trading calendar: the same days as computing them from the prices, read only while
// it was built for the store's current data (its snapshot id); older stores compute them.

let dir: string;
let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-calendar-'));
  const file = path.join(dir, 'market.duckdb');
  await writeFixtureStore(file, syntheticUniverse({ securities: 12, years: 3, seed: 4 }));
  instance = await DuckDBInstance.create(file);
  conn = await instance.connect();
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

const days = (a: Int32Array | null) => (a === null ? null : Array.from(a));

describe('stored trading calendar', () => {
  it('is read from the prices on a store built without it, then from the table once stored', async () => {
    await refreshSnapshotId(conn);
    const computed = await computeTradingCalendar(conn);
    expect(computed.length).toBeGreaterThan(500);
    expect(computed.every((d, i) => i === 0 || d > computed[i - 1])).toBe(true);
    expect(await storedTradingCalendar(conn)).toBeNull();
    expect(days(await loadTradingCalendar(conn))).toEqual(days(computed));

    await storeTradingCalendar(conn);
    expect(days(await storedTradingCalendar(conn))).toEqual(days(computed));
    expect(days(await loadTradingCalendar(conn))).toEqual(days(computed));
  });

  it('is not read once the data changed (a new snapshot id), until it is stored again', async () => {
    const before = await computeTradingCalendar(conn);
    const newDay = before[before.length - 1] + 3;
    const [[perm]] = (await conn.runAndReadAll('SELECT min(permaticker)::INTEGER FROM prices')).getRows();
    await conn.run(
      `INSERT INTO prices BY NAME SELECT permaticker, (DATE '1970-01-01' + INTERVAL ($1) DAY)::DATE AS date, close FROM prices
        WHERE permaticker = $2 ORDER BY date DESC LIMIT 1`,
      [newDay, perm],
    );
    await refreshSnapshotId(conn);
    expect(await storedTradingCalendar(conn)).toBeNull();
    const after = await loadTradingCalendar(conn);
    expect(days(after)).toEqual([...days(before)!, newDay]);

    await storeTradingCalendar(conn);
    expect(days(await storedTradingCalendar(conn))).toEqual(days(after));
  });
});
