import { parentPort } from 'node:worker_threads';
import { METRIC_IDS } from './catalogue';
import { UniverseEvaluator } from './engine/evaluate';
import type { MarketReturns, SecurityInput } from './engine/types';
import { BlockChain } from './snapshot-deltas';
import { encodeSnapshotValues } from './snapshot-values';

// A snapshot build's evaluator thread (snapshot-evaluators.server.ts): evaluates one block of
// securities on the days it is sent and posts every day's columns back, in their stored form, as
// they are done.

export type EvaluateJob = {
  id: number;
  securities: SecurityInput[];
  market: MarketReturns | null;
  calendar: Int32Array;
  days: number[];
  /** Per day, the date whose columns it may be stored as changes from (-1: stored in full; snapshot-deltas.ts). */
  chainFrom: number[];
};

/** One evaluated day: the block's listed permatickers and each catalogue metric's stored bytes, in METRIC_IDS order. */
export type EvaluatedDay = { id: number; day: number; permatickers: Int32Array; values: Uint8Array[] };
export type WorkerReply = EvaluatedDay | { id: number; done: true } | { id: number; error: string } | { ready: true };

/** A block's snapshot on `day`, each metric's column in full. */
export function evaluateDay(evaluator: UniverseEvaluator, id: number, day: number): EvaluatedDay {
  const snap = evaluator.evaluate(day);
  return { id, day, permatickers: snap.permatickers, values: METRIC_IDS.map((m) => encodeSnapshotValues(snap.values[m])) };
}

/**
 * A job's days in their stored form, one after the other (shared with the in-thread path, so both
 * store the same bytes): a day the block has no listed security on is passed on as it is.
 */
export function* evaluateJob(job: EvaluateJob): Generator<EvaluatedDay> {
  const evaluator = new UniverseEvaluator({ securities: job.securities, market: job.market, calendar: job.calendar });
  const chain = new BlockChain();
  for (let k = 0; k < job.days.length; k++) {
    const out = evaluateDay(evaluator, job.id, job.days[k]);
    if (out.permatickers.length > 0) out.values = chain.encode(out.day, out.permatickers, out.values, job.chainFrom[k]);
    yield out;
  }
}

const port = parentPort;
if (port) {
  port.on('message', (job: EvaluateJob) => {
    try {
      for (const out of evaluateJob(job)) {
        port.postMessage(out, [out.permatickers.buffer as ArrayBuffer, ...out.values.map((v) => v.buffer as ArrayBuffer)]);
      }
      port.postMessage({ id: job.id, done: true } satisfies WorkerReply);
    } catch (e) {
      port.postMessage({ id: job.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies WorkerReply);
    }
  });
  port.postMessage({ ready: true } satisfies WorkerReply);
}
