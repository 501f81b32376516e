import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './db.server';

// The SQLite connection keeps its prepared statements (by SQL text): the same query asked again
// must read what is there now, also after the table changed. And a transaction that reads, then
// writes, is not undone by another process writing the same file in between (web processes under
// WEB_CONCURRENCY, `npm run worker`, the CLI share it).

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite app database', () => {
  it('answers a repeated query with the rows and columns of the moment', async () => {
    const { db, close } = openDatabase({ sqliteFile: path.join(dir, 'app.sqlite') });
    try {
      await migrate(db);
      await sql`CREATE TABLE numbers (n INTEGER NOT NULL)`.execute(db);
      const count = async () => Number((await sql<{ c: number }>`SELECT count(*) AS c FROM numbers`.execute(db)).rows[0].c);
      for (let n = 1; n <= 5; n++) {
        await sql`INSERT INTO numbers (n) VALUES (${n})`.execute(db);
        expect(await count()).toBe(n);
      }
      // A statement kept from before a change of the table reads the table as it is now.
      const rows = sql<Record<string, unknown>>`SELECT * FROM numbers WHERE n = ${2}`;
      expect((await rows.execute(db)).rows).toEqual([{ n: 2 }]);
      await sql`ALTER TABLE numbers ADD COLUMN label TEXT`.execute(db);
      await sql`UPDATE numbers SET label = 'two' WHERE n = 2`.execute(db);
      expect((await rows.execute(db)).rows).toEqual([{ n: 2, label: 'two' }]);
    } finally {
      await close();
    }
  });

  it('lets a transaction that reads, then writes, commit while another process writes the same file', async () => {
    const file = path.join(dir, 'shared.sqlite');
    const { db, close } = openDatabase({ sqliteFile: file });
    // The other process: its own connection, which gives up at once on a locked database.
    const other = new SQLite(file, { timeout: 0 });
    try {
      await migrate(db);
      await sql`CREATE TABLE tally (who TEXT NOT NULL, seen INTEGER NOT NULL)`.execute(db);
      const theirs = () => other.prepare(`INSERT INTO tally (who, seen) VALUES ('other', 0)`).run();
      let refused = false;
      await db.transaction().execute(async (trx) => {
        const seen = Number((await sql<{ c: number }>`SELECT count(*) AS c FROM tally`.execute(trx)).rows[0].c);
        // The other process writes between this transaction's read and its write: it must wait
        // for this one (a transaction holds the file's write lock from its start), not make this
        // one's write fail.
        try {
          theirs();
        } catch (e) {
          expect((e as { code?: string }).code).toBe('SQLITE_BUSY');
          refused = true;
        }
        await sql`INSERT INTO tally (who, seen) VALUES ('app', ${seen})`.execute(trx);
      });
      expect(refused).toBe(true);
      theirs();
      const rows = await sql<{ who: string; seen: number }>`SELECT who, seen FROM tally ORDER BY rowid`.execute(db);
      expect(rows.rows).toEqual([
        { who: 'app', seen: 0 },
        { who: 'other', seen: 0 },
      ]);
    } finally {
      other.close();
      await close();
    }
  });
});
