import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './db.server';

// The SQLite connection keeps its prepared statements (by SQL text): the same query asked again
// must read what is there now, also after the table changed.

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
});
