import { parentPort } from 'node:worker_threads';
import { METRIC_IDS } from './catalogue';
import { UniverseEvaluator } from './engine/evaluate';
import type { MarketReturns, SecurityInput } from './engine/types';
import { encodeSnapshotValues } from './snapshot-values';

// A snapshot build's evaluator thread (snapshot-evaluators.server.ts): evaluates one block of
// securities on the days it is sent and posts every day's encoded columns back as they are done.

export type EvaluateJob = {
  id: number;
  securities: SecurityInput[];
  market: MarketReturns | null;
  calendar: Int32Array;
  days: number[];
};

/** One evaluated day: the block's listed permatickers and each catalogue metric's stored bytes, in METRIC_IDS order. */
export type EvaluatedDay = { id: number; day: number; permatickers: Int32Array; values: Uint8Array[] };
export type WorkerReply = EvaluatedDay | { id: number; done: true } | { id: number; error: string } | { ready: true };

/** The stored form of a block's snapshot on `day` (shared with the in-thread path, so both store the same bytes). */
export function evaluateDay(evaluator: UniverseEvaluator, id: number, day: number): EvaluatedDay {
  const snap = evaluator.evaluate(day);
  return { id, day, permatickers: snap.permatickers, values: METRIC_IDS.map((m) => encodeSnapshotValues(snap.values[m])) };
}

const port = parentPort;
if (port) {
  port.on('message', (job: EvaluateJob) => {
    try {
      const evaluator = new UniverseEvaluator({ securities: job.securities, market: job.market, calendar: job.calendar });
      for (const day of job.days) {
        const out = evaluateDay(evaluator, job.id, day);
        port.postMessage(out, [out.permatickers.buffer as ArrayBuffer, ...out.values.map((v) => v.buffer as ArrayBuffer)]);
      }
      port.postMessage({ id: job.id, done: true } satisfies WorkerReply);
    } catch (e) {
      port.postMessage({ id: job.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies WorkerReply);
    }
  });
  port.postMessage({ ready: true } satisfies WorkerReply);
}
