import { setImmediate as nextTurn } from 'node:timers/promises';
import { getDb, withoutDiskWait, type DbExecutor } from '../db/db.server';
import { notFound } from '../http/errors';
import type { PagedEncoding, PartLoader } from './stored-result';

// The parts of paged stored results (stored-result.ts, format 4) in the database: written by the
// compute process a few at a time, read one at a time by the pages, the API and the downloads.

/** Part bytes one write transaction carries at most (one part always goes, however large). */
const WRITE_BATCH_CHARS = 4 * 2 ** 20;

/** The row's columns a stored result sets besides the result itself (`storedAt`: its updated_at, chosen by the run so a waiting request knows the row ahead). */
export type ResultFields = { summary: string; snapshotId: string | null; engineVersion: string; storedAt: string };

/** The backtest row's columns that make a stored result its own (the light part names the parts' key). */
function resultColumns(key: string, encoding: PagedEncoding, fields: ResultFields) {
  return {
    result: encoding.light,
    parts_key: key,
    summary: fields.summary,
    snapshot_id: fields.snapshotId,
    engine_version: fields.engineVersion,
    updated_at: fields.storedAt,
  };
}

/**
 * Stores a paged result (without waiting for the disk: a result a power cut undoes is computed
 * again by its job, whose end is undone with it): its parts first, in short transactions (the SQLite write lock is held
 * for a few MB at a time, so the web process's own writes go on in between), then the light part
 * and the summary in one small update. A reader sees the result whole or not at all. Nothing is
 * stored (false, and this store's parts are removed) when the backtest already has a result, is
 * gone, or lost some of the parts meanwhile (a newer run of it removed them).
 */
export async function storePagedResult(
  backtestId: string,
  key: string,
  encoding: PagedEncoding,
  fields: ResultFields,
  /** `betweenBatches`: what runs after each batch of parts (a turn of the event loop; tests put a concurrent writer there). */
  {
    batchChars = WRITE_BATCH_CHARS,
    betweenBatches = () => nextTurn(),
  }: { batchChars?: number; betweenBatches?: () => Promise<unknown> } = {},
): Promise<boolean> {
  const db = await getDb();
  // A result that fits one write batch (most do) is stored in one transaction: one commit
  // instead of two, and no write lock held longer than a batch's.
  const chars = encoding.parts.reduce((n, p) => n + p.data.length, encoding.light.length);
  if (chars <= batchChars) return storeSmallResult(backtestId, key, encoding, fields);
  // Deleted meanwhile, or stored by another run: nothing to store.
  const row = await db.selectFrom('backtests').select('summary').where('id', '=', backtestId).executeTakeFirst();
  if (!row || row.summary !== null) return false;
  try {
    for (let i = 0; i < encoding.parts.length;) {
      const batch = [encoding.parts[i++]];
      let batchSize = batch[0].data.length;
      while (i < encoding.parts.length && batchSize + encoding.parts[i].data.length <= batchChars) {
        batchSize += encoding.parts[i].data.length;
        batch.push(encoding.parts[i++]);
      }
      await withoutDiskWait((w) =>
        w
          .insertInto('backtest_result_parts')
          .values(batch.map((p) => ({ backtest_id: backtestId, run_key: key, kind: p.kind, seq: p.seq, row_count: p.rows, data: p.data })))
          .execute(),
      );
      await betweenBatches();
    }
    const updated = await withoutDiskWait((w) =>
      w
        .updateTable('backtests')
        .set(resultColumns(key, encoding, fields))
        .where('id', '=', backtestId)
        .where('result', 'is', null)
        .where(
          (eb) =>
            eb
              .selectFrom('backtest_result_parts')
              .select(eb.fn.countAll<number>().as('n'))
              .where('backtest_id', '=', backtestId)
              .where('run_key', '=', key),
          '=',
          encoding.parts.length,
        )
        .executeTakeFirst(),
    );
    if (Number(updated.numUpdatedRows) === 1) {
      // Stored: the parts of runs that died before storing theirs go now (not before: another
      // attempt of the job, whose lease lapsed, may still have been writing them).
      await removeUnusedParts(backtestId).catch(() => undefined);
      return true;
    }
  } catch (e) {
    await removeUnusedParts(backtestId, { runKey: key }).catch(() => undefined);
    throw e;
  }
  await removeUnusedParts(backtestId, { runKey: key });
  return false;
}

/** Thrown inside the transaction of a small result to roll it back when the result is not this run's to store. */
class NotStored extends Error {}

async function storeSmallResult(backtestId: string, key: string, encoding: PagedEncoding, fields: ResultFields): Promise<boolean> {
  try {
    await withoutDiskWait(
      async (trx) => {
        // Writes first: on SQLite the transaction takes the write lock with its first statement
        // (waiting its turn), never after a read, which could not wait for it.
        await removeUnusedParts(backtestId, { db: trx });
        if (encoding.parts.length > 0)
          await trx
            .insertInto('backtest_result_parts')
            .values(
              encoding.parts.map((p) => ({
                backtest_id: backtestId,
                run_key: key,
                kind: p.kind,
                seq: p.seq,
                row_count: p.rows,
                data: p.data,
              })),
            )
            .execute();
        // Deleted meanwhile, or stored by another run: nothing to store (the parts go with the rollback).
        const updated = await trx
          .updateTable('backtests')
          .set(resultColumns(key, encoding, fields))
          .where('id', '=', backtestId)
          .where('result', 'is', null)
          .where('summary', 'is', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new NotStored();
      },
      { transaction: true },
    );
    return true;
  } catch (e) {
    if (e instanceof NotStored) return false;
    throw e;
  }
}

/**
 * Removes the parts of a backtest that its stored result does not use (runs that died or failed);
 * with `runKey`, only that run's: a run that stops cleans up after itself without touching the
 * parts another attempt of the same job may be writing at that moment.
 */
export async function removeUnusedParts(backtestId: string, opts: { runKey?: string; db?: DbExecutor } = {}): Promise<void> {
  let q = (opts.db ?? (await getDb())).deleteFrom('backtest_result_parts').where('backtest_id', '=', backtestId);
  if (opts.runKey !== undefined) q = q.where('run_key', '=', opts.runKey);
  await q
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('backtests')
            .select('backtests.id')
            .where('backtests.id', '=', backtestId)
            .whereRef('backtests.parts_key', '=', 'backtest_result_parts.run_key'),
        ),
      ),
    )
    .execute();
}

/** Reads the parts of one backtest's stored result, one part a call. */
export function partLoader(backtestId: string): PartLoader {
  return async (key, kind, seq) => {
    const db = await getDb();
    const row = await db
      .selectFrom('backtest_result_parts')
      .select('data')
      .where('backtest_id', '=', backtestId)
      .where('run_key', '=', key)
      .where('kind', '=', kind)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!row) {
      // Deleted while being read: gone, like the backtest.
      const still = await db.selectFrom('backtests').select('id').where('id', '=', backtestId).executeTakeFirst();
      if (!still) throw notFound('Backtest not found.');
      throw new Error(`The stored result of backtest ${backtestId} lacks its ${kind} part ${seq}`);
    }
    return row.data;
  };
}

/** Parts deleted by one statement in `deleteAllParts` (each about a MB). */
const DELETE_BATCH_PARTS = 4;

/**
 * Deletes every part of a backtest a few at a time (a long result's hundred MB at once would hold
 * the SQLite write lock for a second). The caller has taken the result away from readers first.
 */
export async function deleteAllParts(backtestId: string): Promise<void> {
  const db = await getDb();
  const parts = await db
    .selectFrom('backtest_result_parts')
    .select(['run_key', 'kind', 'seq'])
    .where('backtest_id', '=', backtestId)
    .execute();
  for (let i = 0; i < parts.length; i += DELETE_BATCH_PARTS) {
    const batch = parts.slice(i, i + DELETE_BATCH_PARTS);
    await db
      .deleteFrom('backtest_result_parts')
      .where('backtest_id', '=', backtestId)
      .where((eb) => eb.or(batch.map((p) => eb.and([eb('run_key', '=', p.run_key), eb('kind', '=', p.kind), eb('seq', '=', p.seq)]))))
      .execute();
    await nextTurn();
  }
}
