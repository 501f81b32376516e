import { sql } from 'kysely';
import { expect, it, vi } from 'vitest';
import { getDb, withoutDiskWait, type DbExecutor } from '~/services/db/db.server';
import { forEachDatabase } from '../support/databases';

// Writes that are made again after a power cut (a job's lease and end, a backtest's stored result)
// commit without waiting for the disk; every other query, including one asked for meanwhile by
// another request, keeps waiting for it (an account change must survive a power cut).

/** Whether a commit on this connection waits for the disk, as the database says. */
async function waitsForDisk(db: DbExecutor, dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(db);
    return rows[0].synchronous_commit !== 'off';
  }
  const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db);
  // 2 is FULL, 1 NORMAL.
  return rows[0].synchronous === 2;
}

forEachDatabase('writes without waiting for the disk', (target) => {
  it('relaxes its own commits only, and the setting is back afterwards', async () => {
    const db = await getDb();
    await sql`CREATE TABLE IF NOT EXISTS disk_wait_probe (n INTEGER NOT NULL)`.execute(db);
    expect(await waitsForDisk(db, target.dialect)).toBe(true);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inside: boolean | null = null;
    const write = withoutDiskWait(async (w) => {
      inside = await waitsForDisk(w, target.dialect);
      await sql`INSERT INTO disk_wait_probe (n) VALUES (1)`.execute(w);
      await gate;
    });
    // Another request's query while the relaxed write is open: it does not run relaxed.
    await new Promise((r) => setTimeout(r, 20));
    const meanwhile = waitsForDisk(db, target.dialect);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await write;
    expect(inside).toBe(false);
    expect(await meanwhile).toBe(true);
    expect(await waitsForDisk(db, target.dialect)).toBe(true);
    const { rows } = await sql<{ c: number }>`SELECT count(*) AS c FROM disk_wait_probe`.execute(db);
    expect(Number(rows[0].c)).toBe(1);
  });

  it('rolls a failed transaction back and leaves the setting as it was', async () => {
    const db = await getDb();
    await sql`CREATE TABLE IF NOT EXISTS disk_wait_failed (n INTEGER NOT NULL)`.execute(db);
    await expect(
      withoutDiskWait(
        async (w) => {
          await sql`INSERT INTO disk_wait_failed (n) VALUES (1)`.execute(w);
          throw new Error('the write failed');
        },
        { transaction: true },
      ),
    ).rejects.toThrow('the write failed');
    const { rows } = await sql<{ c: number }>`SELECT count(*) AS c FROM disk_wait_failed`.execute(db);
    expect(Number(rows[0].c)).toBe(0);
    expect(await waitsForDisk(db, target.dialect)).toBe(true);
  });

  it('on PostgreSQL, each statement of a relaxed write commits on its own unless a transaction is asked for', async () => {
    if (target.dialect !== 'postgres') return;
    // One round trip a statement: no BEGIN, SET LOCAL and COMMIT around it, and the relaxed
    // connections are not the ones other requests use.
    const db = await getDb();
    await sql`CREATE TABLE IF NOT EXISTS disk_wait_each (n INTEGER NOT NULL)`.execute(db);
    await sql`DELETE FROM disk_wait_each`.execute(db);
    const seen: number[] = [];
    const count = async () => Number((await sql<{ c: string }>`SELECT count(*) AS c FROM disk_wait_each`.execute(db)).rows[0].c);
    await withoutDiskWait(async (w) => {
      await sql`INSERT INTO disk_wait_each (n) VALUES (1)`.execute(w);
      seen.push(await count());
    });
    await withoutDiskWait(
      async (w) => {
        await sql`INSERT INTO disk_wait_each (n) VALUES (2)`.execute(w);
        seen.push(await count());
      },
      { transaction: true },
    );
    expect(seen).toEqual([1, 1]);
    expect(await count()).toBe(2);
  });

  it('reopens a SQLite connection it could not set to wait for the disk again', async () => {
    if (target.dialect !== 'sqlite') return;
    // A write that leaves a transaction open (as a failed rollback can): SQLite refuses to change
    // the setting inside it, so the connection would stay relaxed.
    const logged = vi.mocked(console.error).mockImplementationOnce(() => undefined);
    await expect(
      withoutDiskWait(async (w) => {
        await sql`BEGIN`.execute(w);
      }),
    ).rejects.toThrow(/inside a transaction/);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('could not wait for the disk again'));
    const db = await getDb();
    expect(await waitsForDisk(db, target.dialect)).toBe(true);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(rows[0].one).toBe(1);
  });
});
