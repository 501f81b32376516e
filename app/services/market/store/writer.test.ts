import { mkdtempSync, rmSync, existsSync, statSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FactRecord, PriceRecord, SecurityRecord } from './records';
import {
  closeMarketReader,
  compactIfSparse,
  deferCheckpoints,
  marketReader,
  openMarketReader,
  openWritableStore,
  type WritableStore,
} from './open-store.server';
import { FACT_COLUMNS, priceColumns } from './market-columns';
import { codeRows } from './typed-columns';
import { createMarketWriter, openMarketWriter, withMarketWriter } from './writer.server';

const dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-writer-'));
let n = 0;
const freshFile = () => path.join(dir, `m${++n}.duckdb`);

afterEach(() => closeMarketReader());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Adds a table of `kept` doubles and drops one of `dropped`: the dropped one's blocks are left free. */
async function leaveFreeBlocks(file: string, rows: { kept: number; dropped: number }): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  if (rows.kept > 0) await conn.run(`CREATE TABLE kept AS SELECT range::DOUBLE * 1.000001 AS x FROM range(${rows.kept})`);
  await conn.run(`CREATE TABLE scratch AS SELECT range::DOUBLE * 1.000001 AS x FROM range(${rows.dropped})`);
  await conn.run('CHECKPOINT');
  await conn.run('DROP TABLE scratch');
  await conn.run('CHECKPOINT');
  conn.closeSync();
  instance.closeSync();
}

const security = (permaticker: number, ticker: string, extra: Partial<SecurityRecord> = {}): SecurityRecord => ({
  permaticker,
  ticker,
  name: `${ticker} Corp`,
  exchange: 'NYSE',
  category: 'Domestic Common Stock',
  sector: 'Technology',
  industry: 'Software',
  cik: null,
  firstPriceDate: '2020-01-02',
  lastPriceDate: '2020-01-03',
  isDelisted: false,
  source: 'test',
  ...extra,
});

const price = (permaticker: number, date: string, close: number): PriceRecord => ({
  permaticker,
  date,
  open: close,
  high: close,
  low: close,
  close,
  volume: 1000,
  closeUnadj: close,
  tri: close,
});

const fact = (permaticker: number, value: number, source = 'test'): FactRecord => ({
  permaticker,
  concept: 'revenue',
  value,
  unit: 'USD',
  periodStart: '2020-01-01',
  periodEnd: '2020-03-31',
  fiscalYear: 2020,
  fiscalPeriod: 'Q1',
  form: '10-Q',
  filed: '2020-05-01',
  accession: '0000000001-20-000001',
  source,
  sourceTag: null,
});

async function count(file: string, table: string): Promise<number> {
  const reader = await openMarketReader(file);
  try {
    const [row] = await reader.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
    return row.n;
  } finally {
    reader.close();
  }
}

describe('market writer', () => {
  it('commits a transaction, and the same content gives the same snapshot id whatever the order', async () => {
    const a = freshFile();
    const b = freshFile();
    const ids: string[] = [];
    for (const [file, order] of [
      [a, [1, 2]],
      [b, [2, 1]],
    ] as const) {
      ids.push(
        await withMarketWriter(file, {}, async (w) => {
          for (const p of order) {
            await w.transaction(async (tx) => {
              await tx.upsertSecurities([security(p, `T${p}`)]);
              await tx.replacePrices([p], [price(p, '2020-01-02', 10 * p), price(p, '2020-01-03', 11 * p)]);
            });
          }
          return (await w.finish('test')).snapshotId;
        }),
      );
    }
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(await count(a, 'prices')).toBe(4);
    const reader = await openMarketReader(a);
    const meta = await reader.all<{ value: string }>(`SELECT value FROM meta WHERE key = 'snapshot_id'`);
    const runs = await reader.all<{ source: string; status: string }>(`SELECT source, status FROM import_runs`);
    reader.close();
    expect(meta[0].value).toBe(ids[0]);
    expect(runs).toEqual([{ source: 'test', status: 'done' }]);
  });

  it('changes the snapshot id when any value changes, and re-running the same writes changes nothing', async () => {
    const file = freshFile();
    const write = (close: number) =>
      withMarketWriter(file, {}, async (w) => {
        await w.transaction(async (tx) => {
          await tx.upsertSecurities([security(1, 'AAA')]);
          await tx.replacePrices([1], [price(1, '2020-01-02', close)]);
          await tx.replaceFacts([1], 'test', [fact(1, 5)]);
        });
        return (await w.finish('test')).snapshotId;
      });
    const first = await write(10);
    const again = await write(10);
    const changed = await write(10.01);
    expect(again).toBe(first);
    expect(changed).not.toBe(first);
    expect(await count(file, 'prices')).toBe(1);
    expect(await count(file, 'facts')).toBe(1);
  });

  it("keeps a security's first and last price dates with its stored prices, whoever created the row", async () => {
    const file = freshFile();
    await withMarketWriter(file, {}, async (w) => {
      // Created by one source with no prices yet (dates as that source knew them) …
      await w.transaction((tx) =>
        tx.upsertSecurities([security(1, 'AAA', { firstPriceDate: null, lastPriceDate: null }), security(2, 'BBB')]),
      );
      // … then a price file for it alone, in a later transaction that does not touch the row.
      await w.transaction((tx) =>
        tx.replacePrices([1], [price(1, '2021-03-01', 10), price(1, '2021-06-30', 12), price(1, '2021-01-04', 9)]),
      );
      await w.finish('test');
    });
    const reader = await openMarketReader(file);
    const rows = await reader.all<{ permaticker: number; first: string | null; last: string | null }>(
      `SELECT permaticker, strftime(first_price_date, '%Y-%m-%d') AS first, strftime(last_price_date, '%Y-%m-%d') AS last FROM securities ORDER BY permaticker`,
    );
    reader.close();
    expect(rows).toEqual([
      { permaticker: 1, first: '2021-01-04', last: '2021-06-30' },
      // Untouched: no prices were written for it.
      { permaticker: 2, first: '2020-01-02', last: '2020-01-03' },
    ]);
  });

  it('fills the gaps of a row another source wrote, never what it already holds', async () => {
    const file = freshFile();
    await withMarketWriter(file, {}, async (w) => {
      await w.transaction((tx) =>
        tx.upsertSecurities([
          security(1, 'AAA', { name: 'AAA', sector: null, industry: null, exchange: null, source: 'prices' }),
          security(2, 'BBB', { cik: '0000000002' }),
        ]),
      );
      await w.transaction((tx) =>
        tx.fillSecurityGaps([
          security(1, 'IGNORED', {
            name: 'Aaa Holdings',
            sector: 'Energy',
            industry: null,
            cik: '0000000001',
            firstPriceDate: null,
            lastPriceDate: null,
            source: 'sec',
          }),
          security(2, 'BBB', { name: 'Other Name', sector: 'Utilities', cik: '0000009999', source: 'sec' }),
        ]),
      );
      await w.finish('test');
    });
    const reader = await openMarketReader(file);
    const rows = await reader.all<Record<string, unknown>>(
      `SELECT permaticker, ticker, name, exchange, sector, industry, cik, strftime(last_price_date, '%Y-%m-%d') AS last, source FROM securities ORDER BY permaticker`,
    );
    reader.close();
    expect(rows).toEqual([
      {
        permaticker: 1,
        ticker: 'AAA',
        name: 'Aaa Holdings',
        exchange: 'NYSE',
        sector: 'Energy',
        industry: null,
        cik: '0000000001',
        last: '2020-01-03',
        source: 'prices',
      },
      {
        permaticker: 2,
        ticker: 'BBB',
        name: 'BBB Corp',
        exchange: 'NYSE',
        sector: 'Technology',
        industry: 'Software',
        cik: '0000000002',
        last: '2020-01-03',
        source: 'test',
      },
    ]);
  });

  it('rolls back everything in a failed transaction and keeps earlier committed ones', async () => {
    const file = freshFile();
    const writer = await openMarketWriter(file);
    await writer.transaction((tx) => tx.upsertSecurities([security(1, 'AAA')]));
    await expect(
      writer.transaction(async (tx) => {
        await tx.upsertSecurities([security(2, 'BBB')]);
        await tx.replacePrices([2], [price(2, '2020-01-02', 5)]);
        throw new Error('importer failed half way');
      }),
    ).rejects.toThrow('importer failed half way');
    // A bad value is refused with the row number, also rolling back.
    await expect(
      writer.transaction((tx) => tx.replacePrices([1], [price(1, '2020-01-02', 5), { ...price(1, '2020-01-03', 5), close: Number.NaN }])),
    ).rejects.toThrow(/prices row 2: close must be a finite number/);
    await expect(writer.transaction((tx) => tx.replacePrices([1], [price(1, '2020-13-45x', 5)]))).rejects.toThrow(/YYYY-MM-DD/);
    await expect(writer.transaction((tx) => tx.replacePrices([1], [price(3, '2020-01-02', 5)]))).rejects.toThrow(
      /not among the permatickers/,
    );
    await writer.publish();
    expect(await count(file, 'securities')).toBe(1);
    expect(await count(file, 'prices')).toBe(0);
  });

  it('keeps one price per security and day without a table key: a repeated day is refused, unordered rows are not', async () => {
    const file = freshFile();
    const writer = await openMarketWriter(file);
    await writer.transaction((tx) => tx.upsertSecurities([security(1, 'AAA'), security(2, 'BBB')]));
    await expect(
      writer.transaction((tx) =>
        tx.replacePrices(
          [1, 2],
          [price(2, '2020-01-03', 5), price(1, '2020-01-02', 5), price(2, '2020-01-02', 6), price(2, '2020-01-03', 7)],
        ),
      ),
    ).rejects.toThrow(/prices row 4: a second price of permaticker 2 on 2020-01-03/);
    await writer.transaction((tx) =>
      tx.replacePrices([1, 2], [price(2, '2020-01-03', 5), price(1, '2020-01-02', 5), price(2, '2020-01-02', 6)]),
    );
    // Replacing a security's prices again leaves one row per day.
    await writer.transaction((tx) => tx.replacePrices([2], [price(2, '2020-01-02', 8), price(2, '2020-01-06', 9)]));
    await writer.publish();
    const reader = await openMarketReader(file);
    const rows = await reader.all(`SELECT permaticker, strftime(date, '%Y-%m-%d') AS date, close FROM prices ORDER BY permaticker, date`);
    const ranges = await reader.all(
      `SELECT permaticker, strftime(first_price_date, '%Y-%m-%d') AS first, strftime(last_price_date, '%Y-%m-%d') AS last FROM securities ORDER BY permaticker`,
    );
    reader.close();
    expect(rows).toEqual([
      { permaticker: 1, date: '2020-01-02', close: 5 },
      { permaticker: 2, date: '2020-01-02', close: 8 },
      { permaticker: 2, date: '2020-01-06', close: 9 },
    ]);
    expect(ranges).toEqual([
      { permaticker: 1, first: '2020-01-02', last: '2020-01-02' },
      { permaticker: 2, first: '2020-01-02', last: '2020-01-06' },
    ]);
  });

  it('rewrites a work file whose free blocks are a large share of it, keeping every row', async () => {
    const file = freshFile();
    await withMarketWriter(file, {}, (w) => w.transaction((tx) => tx.upsertSecurities([security(1, 'AAA')])));
    await leaveFreeBlocks(file, { kept: 0, dropped: 3_000_000 });
    const size = statSync(file).size;
    // Not sparse enough (or too small) for the limits: untouched.
    expect(await compactIfSparse(file, { share: 0.15, minBytes: 10 * size })).toBeNull();
    expect(statSync(file).size).toBe(size);
    const done = await compactIfSparse(file, { share: 0.15, minBytes: 0 });
    expect(done?.before).toBe(size);
    expect(done?.after).toBeLessThan(size / 2);
    expect(existsSync(`${file}.compact`)).toBe(false);
    const reader = await openMarketReader(file);
    expect(await reader.all(`SELECT permaticker, ticker FROM securities`)).toEqual([{ permaticker: 1, ticker: 'AAA' }]);
    expect(await reader.all(`SELECT value FROM meta WHERE key = 'schema_version'`)).toEqual([{ value: '1' }]);
    reader.close();
  });

  it('keeps committed rows in the log until the one checkpoint asked for once automatic checkpoints are deferred', async () => {
    const logAfterCommits = async (defer: boolean) => {
      const file = freshFile();
      const instance = await DuckDBInstance.create(file);
      const conn = await instance.connect();
      // Without deferring, a checkpoint comes after every commit here (every 16 MB in a large build).
      if (defer) await deferCheckpoints(conn);
      else await conn.run(`SET checkpoint_threshold = '256KB'`);
      await conn.run('CREATE TABLE t (x DOUBLE, y INTEGER)');
      const appender = await conn.createAppender('t');
      for (let r = 0; r < 600_000; r++) {
        appender.appendDouble(r * 1.000001);
        appender.appendInteger(r % 7);
        appender.endRow();
        // Each flush commits (the snapshot build's appenders flush a block at a time).
        if (r % 100_000 === 99_999) appender.flushSync();
      }
      appender.closeSync();
      const walSize = () => (existsSync(`${file}.wal`) ? statSync(`${file}.wal`).size : 0);
      const log = walSize();
      await conn.run('CHECKPOINT');
      const rows = Number((await conn.runAndReadAll('SELECT count(*)::INTEGER FROM t')).getRows()[0][0]);
      conn.closeSync();
      instance.closeSync();
      expect(walSize()).toBe(0);
      expect(rows).toBe(600_000);
      return log;
    };
    expect(await logAfterCommits(false)).toBeLessThan(1_000_000);
    expect(await logAfterCommits(true)).toBeGreaterThan(5_000_000);
  });

  it('publishes a file with a few free blocks as it is (no rewrite under the 15 % threshold)', async () => {
    const freeBlocks = async (file: string) => {
      const i = await DuckDBInstance.create(file);
      const conn = await i.connect();
      const r = await conn.runAndReadAll('SELECT free_blocks::INTEGER, total_blocks::INTEGER FROM pragma_database_size()');
      conn.closeSync();
      i.closeSync();
      return r.getRows()[0] as [number, number];
    };
    const file = freshFile();
    const writer = await openMarketWriter(file, { fresh: true });
    await writer.transaction((tx) => tx.upsertSecurities([security(1, 'AAA')]));
    // A table to keep and a smaller one dropped: free blocks well under the 15 % threshold.
    await writer.publish({ beforeRename: (work) => leaveFreeBlocks(work, { kept: 4_000_000, dropped: 300_000 }) });
    const [free, total] = await freeBlocks(file);
    expect(free).toBeGreaterThan(0);
    expect(free).toBeLessThan(total * 0.15);
    const reader = await openMarketReader(file);
    expect(await reader.all(`SELECT permaticker, ticker FROM securities`)).toEqual([{ permaticker: 1, ticker: 'AAA' }]);
    expect(await reader.all(`SELECT count(*)::INTEGER AS n FROM kept`)).toEqual([{ n: 4000000 }]);
    reader.close();
  });

  it('replaces only the facts and actions of the given source', async () => {
    const file = freshFile();
    await withMarketWriter(file, {}, async (w) => {
      await w.transaction(async (tx) => {
        await tx.upsertSecurities([security(1, 'AAA')]);
        await tx.replaceFacts([1], 'sec', [fact(1, 1, 'sec'), { ...fact(1, 2, 'sec'), fiscalPeriod: 'Q2' }]);
        await tx.replaceFacts([1], 'sharadar', [fact(1, 3, 'sharadar')]);
        await tx.replaceActions([1], 'sec', [
          { permaticker: 1, date: '2020-02-03', action: 'dividend', value: 0.5, detail: null, source: 'sec' },
        ]);
      });
      await w.transaction(async (tx) => {
        await tx.replaceFacts([1], 'sec', [fact(1, 9, 'sec')]);
        await tx.replaceActions([1], 'sec', []);
      });
    });
    const reader = await openMarketReader(file);
    const facts = await reader.all<{ value: number; source: string }>(`SELECT value, source FROM facts ORDER BY value`);
    const actions = await reader.all(`SELECT * FROM corporate_actions`);
    reader.close();
    expect(facts).toEqual([
      { value: 3, source: 'sharadar' },
      { value: 9, source: 'sec' },
    ]);
    expect(actions).toEqual([]);
  });

  it('takes prices and facts as columns, refusing rows of other securities or another source', async () => {
    const file = freshFile();
    const prices = priceColumns([price(1, '2020-01-02', 5), price(1, '2020-01-03', 6), price(2, '2020-01-02', 7)]);
    const facts = (rows: FactRecord[]) => codeRows(FACT_COLUMNS, rows, 'facts');
    await withMarketWriter(file, {}, async (w) => {
      await w.transaction(async (tx) => {
        await tx.upsertSecurities([security(1, 'AAA'), security(2, 'BBB')]);
        await tx.replacePriceColumns([1, 2], prices);
        await tx.replaceCodedFacts([1, 2], 'sec', facts([fact(1, 1, 'sec'), fact(2, 2, 'sec')]));
      });
      await expect(w.transaction((tx) => tx.replacePriceColumns([1], prices))).rejects.toThrow(
        'prices row 3 has permaticker 2, which is not among the permatickers being replaced.',
      );
      await expect(
        w.transaction((tx) => tx.replaceCodedFacts([1, 2], 'sec', facts([fact(1, 3, 'sec'), fact(2, 4, 'other')]))),
      ).rejects.toThrow('replaceCodedFacts: facts of another source than sec.');
      await expect(w.transaction((tx) => tx.replaceCodedFacts([2], 'sec', facts([fact(2, 5, 'sec'), fact(3, 6, 'sec')])))).rejects.toThrow(
        'facts row 2 has permaticker 3, which is not among the permatickers being replaced.',
      );
      await expect(
        w.transaction((tx) => tx.replaceCodedFacts([1], 'sec', codeRows(FACT_COLUMNS.slice(0, 5), [fact(1, 7, 'sec')], 'facts'))),
      ).rejects.toThrow('replaceCodedFacts: the rows are not coded as facts.');
    });
    const reader = await openMarketReader(file);
    const stored = await reader.all(`SELECT permaticker, strftime(date, '%Y-%m-%d') AS date, close FROM prices ORDER BY permaticker, date`);
    const storedFacts = await reader.all(`SELECT permaticker, concept, value, source, accession, source_tag FROM facts ORDER BY value`);
    const [range] = await reader.all(
      `SELECT strftime(first_price_date, '%Y-%m-%d') AS first, strftime(last_price_date, '%Y-%m-%d') AS last FROM securities WHERE permaticker = 1`,
    );
    reader.close();
    expect(stored).toEqual([
      { permaticker: 1, date: '2020-01-02', close: 5 },
      { permaticker: 1, date: '2020-01-03', close: 6 },
      { permaticker: 2, date: '2020-01-02', close: 7 },
    ]);
    expect(storedFacts).toEqual([
      { permaticker: 1, concept: 'revenue', value: 1, source: 'sec', accession: '0000000001-20-000001', source_tag: null },
      { permaticker: 2, concept: 'revenue', value: 2, source: 'sec', accession: '0000000001-20-000001', source_tag: null },
    ]);
    expect(range).toEqual({ first: '2020-01-02', last: '2020-01-03' });
  });

  it('runs a side transaction on a connection of its own, alongside a transaction; each commits or rolls back alone', async () => {
    const file = freshFile();
    const facts = (rows: FactRecord[]) => codeRows(FACT_COLUMNS, rows, 'facts');
    // Each waits for the other to have started: run one after the other, they would wait forever.
    const signal = () => {
      let set = () => {};
      const p = new Promise<void>((resolve) => (set = resolve));
      return {
        set,
        within: (ms: number) => Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error('never ran alongside')), ms))]),
      };
    };
    const sideStarted = signal();
    const mainStarted = signal();
    await withMarketWriter(file, { callerThread: true }, async (w) => {
      await Promise.all([
        w.sideTransaction(async (tx) => {
          sideStarted.set();
          await mainStarted.within(5_000);
          await tx.replaceCodedFacts([1, 2], 'sec', facts([fact(1, 1, 'sec'), fact(2, 2, 'sec')]));
        }),
        w.transaction(async (tx) => {
          mainStarted.set();
          await sideStarted.within(5_000);
          await tx.upsertSecurities([security(1, 'AAA'), security(2, 'BBB')]);
          await tx.replacePriceColumns([1, 2], priceColumns([price(1, '2020-01-02', 5), price(2, '2020-01-02', 7)]));
        }),
      ]);
      // A failed side transaction takes back its own rows only; the next one runs.
      await expect(
        w.sideTransaction(async (tx) => {
          await tx.replaceCodedFacts([1], 'sec', facts([fact(1, 10, 'sec')]));
          throw new Error('the facts failed half way');
        }),
      ).rejects.toThrow('the facts failed half way');
      await w.transaction((tx) => tx.replacePriceColumns([1], priceColumns([price(1, '2020-01-02', 6)])));
      await w.sideTransaction((tx) => tx.replaceCodedFacts([2], 'sec', facts([fact(2, 3, 'sec')])));
    });
    const reader = await openMarketReader(file);
    const stored = await reader.all(`SELECT permaticker, close FROM prices ORDER BY permaticker`);
    const storedFacts = await reader.all(`SELECT permaticker, value FROM facts ORDER BY permaticker`);
    reader.close();
    expect(stored).toEqual([
      { permaticker: 1, close: 6 },
      { permaticker: 2, close: 7 },
    ]);
    expect(storedFacts).toEqual([
      { permaticker: 1, value: 1 },
      { permaticker: 2, value: 3 },
    ]);
  });

  it('numbers new securities and finds them by CIK, current ticker or former ticker', async () => {
    const file = freshFile();
    const writer = await openMarketWriter(file);
    expect(await writer.nextPermaticker()).toBe(1);
    await writer.transaction(async (tx) => {
      await tx.upsertSecurities([security(7, 'NEWT', { cik: '0000000042' }), security(9, 'OLDT', { isDelisted: true })]);
      await tx.replaceTickerHistory(7, [
        { permaticker: 7, ticker: 'OLDT', startDate: '2010-01-04', endDate: '2015-06-30' },
        { permaticker: 7, ticker: 'NEWT', startDate: '2015-07-01', endDate: null },
      ]);
    });
    expect(await writer.nextPermaticker()).toBe(10);
    expect(await writer.findPermaticker({ cik: '0000000042' })).toBe(7);
    expect(await writer.findPermaticker({ ticker: 'newt' })).toBe(7);
    expect(await writer.findPermaticker({ ticker: 'OLDT' })).toBe(9);
    expect(await writer.findPermaticker({ ticker: 'NONE', cik: '1' })).toBeNull();
    await writer.discard();
    expect(existsSync(file)).toBe(false);
  });

  it('publishes atomically: readers see the old data until publish, then the new file', async () => {
    const file = freshFile();
    await withMarketWriter(file, {}, (w) => w.transaction((tx) => tx.upsertSecurities([security(1, 'AAA')])));
    const before = await marketReader(file);
    expect(await before.all(`SELECT ticker FROM securities`)).toEqual([{ ticker: 'AAA' }]);

    const writer = await openMarketWriter(file);
    // A second writer on the same file is refused while the first holds the lock.
    await expect(openMarketWriter(file)).rejects.toThrow(/Another process/);
    await writer.transaction((tx) => tx.upsertSecurities([security(2, 'BBB')]));
    expect(await (await marketReader(file)).all(`SELECT count(*)::INTEGER AS n FROM securities`)).toEqual([{ n: 1 }]);
    await writer.publish();
    const after = await marketReader(file);
    expect(after).not.toBe(before);
    expect(await after.all(`SELECT ticker FROM securities ORDER BY ticker`)).toEqual([{ ticker: 'AAA' }, { ticker: 'BBB' }]);
  });
});

describe('market writer settings', () => {
  it('runs DuckDB on the calling thread alone when asked (the demo generator) until it finishes, and publishes the same rows', async () => {
    const threads = async (store: WritableStore) =>
      Number((await store.connection.runAndReadAll(`SELECT current_setting('threads')::INTEGER`)).getRows()[0][0]);
    const memory = await DuckDBInstance.create(':memory:');
    const defaults = Number((await (await memory.connect()).runAndReadAll(`SELECT current_setting('threads')::INTEGER`)).getRows()[0][0]);
    memory.closeSync();
    const plainFile = freshFile();
    const plain = await openWritableStore(plainFile, { fresh: true });
    expect(await threads(plain)).toBe(defaults);
    await plain.discard();

    const file = freshFile();
    const store = await openWritableStore(file, { fresh: true, callerThread: true });
    expect(await threads(store)).toBe(1);
    const writer = createMarketWriter(store);
    await writer.transaction((tx) => tx.upsertSecurities([security(1, 'AAA'), security(2, 'BBB')]));
    expect(await threads(store)).toBe(1);
    // The appends are over once it finishes: the snapshot id's scan and the checkpoint get DuckDB's threads.
    await writer.finish('test');
    expect(await threads(store)).toBe(defaults);
    await writer.publish();
    const reader = await marketReader(file);
    expect(await reader.all(`SELECT ticker FROM securities ORDER BY ticker`)).toEqual([{ ticker: 'AAA' }, { ticker: 'BBB' }]);
  });
});

describe('market reader settings', () => {
  it("opens with DuckDB's defaults, or the memory limit and threads it is given", async () => {
    const file = freshFile();
    await withMarketWriter(file, {}, (w) => w.transaction((tx) => tx.upsertSecurities([security(1, 'AAA')])));
    const setting = `SELECT current_setting('memory_limit') AS memory, current_setting('threads')::INTEGER AS threads`;
    const plain = await openMarketReader(file);
    const bounded = await openMarketReader(file, { memoryLimit: '96MB', threads: 1 });
    try {
      const [given] = await bounded.all<{ memory: string; threads: number }>(setting);
      // DuckDB reports sizes in its own units (96 MB = 91.5 MiB).
      expect(given).toEqual({ memory: '91.5 MiB', threads: 1 });
      const [defaults] = await plain.all<{ memory: string; threads: number }>(setting);
      expect(defaults.memory).not.toBe(given.memory);
      expect(await bounded.all(`SELECT ticker FROM securities`)).toEqual([{ ticker: 'AAA' }]);
    } finally {
      plain.close();
      bounded.close();
    }
  });
});
