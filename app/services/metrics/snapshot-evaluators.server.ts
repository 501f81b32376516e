import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startReadyWorker } from '../worker-threads.server';
import { computeBlock, type ComputeBlockJob, type ComputedBlock } from './computed-block';
import type { SecurityInput } from './engine/types';
import { evaluateJob, unpackDay, type ComputeJob, type EvaluatedDay, type EvaluateJob, type WorkerReply } from './snapshot-evaluate.worker';

// The snapshot build's evaluators. Evaluating the metrics is pure JavaScript and most of a build's
// CPU time; worker threads evaluate blocks of securities while the main thread reads the next
// block from DuckDB and appends the finished ones, so a build uses every core. Where a worker
// cannot start (a bundle without the worker's files), blocks are evaluated in the main thread:
// the same code on the same inputs, so the stored bytes are the same either way.

/** A block's evaluated days, in the order of the days asked for. */
export type BlockResults = AsyncIterable<EvaluatedDay>;

export type SnapshotEvaluators = {
  /** Blocks that may be evaluating while the caller loads the next one (0: evaluated when read, in this thread). */
  readonly inFlight: number;
  evaluate(job: Omit<EvaluateJob, 'id'>): BlockResults;
  /** A block of computed signal days (computed-block.ts); its inputs are moved to the thread. */
  compute(job: ComputeBlockJob): Promise<ComputedBlock>;
  close(): Promise<void>;
};

/**
 * Worker threads a build uses by default: one per core, up to 2; none on a single core. The main
 * thread only reads blocks from DuckDB and appends results (about half its time waits on the
 * evaluators), so on 2 cores a second evaluator took the 6,000 × 25-year demo's snapshots from
 * 31 to 26 s. Each thread holds a block's inputs and evaluator (~200 MB for 250 securities × 25
 * years): more would take that build past 1.5 GB.
 */
export function defaultSnapshotWorkers(): number {
  const cores = availableParallelism();
  return cores > 1 ? Math.min(2, cores) : 0;
}

// Not a literal in `new URL(...)`: bundlers would try to bundle it as an asset.
const WORKER_ENTRY = './snapshot-evaluate-worker.mjs';

function inThread(): SnapshotEvaluators {
  return {
    inFlight: 0,
    evaluate(job) {
      return (async function* () {
        yield* evaluateJob({ ...job, id: 0 });
      })();
    },
    compute: async (job) => computeBlock(job),
    close: async () => {},
  };
}

/** Results of one job as they arrive from its worker. */
class Stream implements AsyncIterable<EvaluatedDay> {
  private readonly items: EvaluatedDay[] = [];
  private done = false;
  private error: Error | null = null;
  private wake: (() => void) | null = null;

  push(item: EvaluatedDay): void {
    this.items.push(item);
    this.wake?.();
  }

  finish(error: Error | null = null): void {
    this.done = true;
    this.error = error;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<EvaluatedDay> {
    let next = 0;
    for (;;) {
      if (next < this.items.length) {
        const item = this.items[next];
        // Drop the reference: a consumed day's bytes are appended and can be collected.
        (this.items as (EvaluatedDay | undefined)[])[next++] = undefined;
        yield item;
        continue;
      }
      if (this.error) throw this.error;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

/**
 * Every typed array buffer of a block's inputs: moved to the worker, not copied (the caller no
 * longer needs them). A security's price columns are views of the block's (loadBlock), each
 * buffer moved once for all of them.
 */
function buffersOf(job: { securities: readonly SecurityInput[] }): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (a: ArrayBufferView) => {
    if (a.buffer instanceof ArrayBuffer && a.buffer.byteLength > 0) out.add(a.buffer);
  };
  for (const s of job.securities) {
    for (const a of [s.dates, s.close, s.closeUnadj, s.volume, s.tri, s.dividends.exDate, s.dividends.amount]) add(a);
    const f = s.facts;
    for (const a of [f.concept, f.value, f.periodEnd, f.periodKind, f.filed, f.available]) add(a);
  }
  return [...out];
}

/**
 * Opens `count` evaluator threads (0: evaluate in this thread). Falls back to this thread when a
 * worker cannot start. Close them when the build is done.
 */
export async function openSnapshotEvaluators(count: number = defaultSnapshotWorkers()): Promise<SnapshotEvaluators> {
  if (count < 1) return inThread();
  const started = await Promise.allSettled(Array.from({ length: count }, () => startReadyWorker(new URL(WORKER_ENTRY, import.meta.url))));
  const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (workers.length < count) {
    await Promise.all(workers.map((w) => w.terminate()));
    return inThread();
  }
  const idle = [...workers];
  const queue: { job: EvaluateJob | ComputeJob; transfer: ArrayBuffer[] }[] = [];
  const streams = new Map<number, Stream>();
  const computing = new Map<number, { resolve: (block: ComputedBlock) => void; reject: (e: Error) => void }>();
  const running = new Map<Worker, number>();
  let nextId = 1;
  let failure: Error | null = null;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const { job, transfer } = queue.shift()!;
      running.set(worker, job.id);
      worker.postMessage(job, transfer);
    }
  };
  let closing = false;
  // Every job waiting or running ends with the error, and every later one at once: a pool that
  // lost a thread (or was closed) would otherwise leave a job waiting for an answer forever.
  const failAll = (e: Error) => {
    failure ??= e;
    queue.length = 0;
    for (const s of streams.values()) s.finish(e);
    streams.clear();
    for (const c of computing.values()) c.reject(e);
    computing.clear();
  };
  for (const worker of workers) {
    worker.on('message', (m: WorkerReply) => {
      if ('ready' in m) return;
      const stream = streams.get(m.id);
      if ('done' in m || 'error' in m || 'computed' in m) {
        const error = 'error' in m ? new Error(`Evaluating snapshots failed: ${m.error}`) : null;
        stream?.finish(error);
        streams.delete(m.id);
        const pending = computing.get(m.id);
        computing.delete(m.id);
        if (pending && error) pending.reject(error);
        else if (pending && 'computed' in m) pending.resolve(m.computed);
        running.delete(worker);
        idle.push(worker);
        dispatch();
      } else stream?.push(unpackDay(m));
    });
    worker.on('error', (e) => failAll(e));
    worker.on('exit', (code) => {
      if (!closing) failAll(new Error(`A snapshot worker exited (${code})${running.has(worker) ? ' while evaluating' : ''}.`));
    });
  }
  return {
    inFlight: workers.length,
    evaluate(job) {
      const stream = new Stream();
      if (failure) {
        stream.finish(failure);
        return stream;
      }
      const id = nextId++;
      streams.set(id, stream);
      queue.push({ job: { ...job, id }, transfer: buffersOf(job) });
      dispatch();
      return stream;
    },
    compute(job) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      const result = new Promise<ComputedBlock>((resolve, reject) => computing.set(id, { resolve, reject }));
      queue.push({ job: { ...job, id, compute: true }, transfer: buffersOf(job) });
      dispatch();
      return result;
    },
    async close() {
      closing = true;
      failAll(new Error('The snapshot evaluators were closed.'));
      running.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
