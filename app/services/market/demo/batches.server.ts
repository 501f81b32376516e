import type { Worker } from 'node:worker_threads';
import { startReadyWorker } from '../../worker-threads.server';
import { demoBatch, type DemoBatch } from './batch';
import type { GenerateReply, GenerateRequest } from './generate.worker';
import type { DemoUniverse } from './universe';

// The demo universe's batches in order, generated in a thread of their own while this one writes
// the ones before (on the 6,000 × 25 demo, generating was a fifth of the writing thread's time).
// The generator keeps at most AHEAD batches ready (a batch of 200 companies × 25 years is ~70 MB
// of arrays). Where the thread cannot start, the batches are generated here, the same ones.

const AHEAD = 2;
// Not a literal in `new URL(...)`: bundlers would try to bundle it as an asset.
const WORKER_ENTRY = './generate-worker.mjs';

/** The generator thread, ready; null where it cannot start. */
export function startDemoGenerator(): Promise<Worker | null> {
  return startReadyWorker(new URL(WORKER_ENTRY, import.meta.url)).catch(() => null);
}

export async function* demoBatches(universe: DemoUniverse, batchSize: number): AsyncGenerator<DemoBatch> {
  const worker = await startDemoGenerator();
  if (!worker) {
    for (let from = 0; from < universe.plan.companies.length; from += batchSize)
      yield demoBatch(universe, from, Math.min(universe.plan.companies.length, from + batchSize));
    return;
  }
  try {
    yield* fromWorker(worker, universe, batchSize);
  } finally {
    await worker.terminate();
  }
}

async function* fromWorker(worker: Worker, universe: DemoUniverse, batchSize: number): AsyncGenerator<DemoBatch> {
  const replies: GenerateReply[] = [];
  let wake: (() => void) | null = null;
  const arrive = (m: GenerateReply) => {
    replies.push(m);
    wake?.();
  };
  worker.on('message', arrive);
  worker.on('error', (e) => arrive({ error: e.message }));
  worker.on('exit', (code) => arrive({ error: `the demo generator thread exited (${code})` }));
  const send = (m: GenerateRequest) => worker.postMessage(m);
  send({ start: { options: universe.plan.options, batchSize } });
  send({ credit: AHEAD });
  for (;;) {
    while (replies.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    const m = replies.shift()!;
    if ('error' in m) throw new Error(`Generating the demo universe failed: ${m.error}`);
    if ('done' in m) return;
    if ('batch' in m) {
      yield m.batch;
      send({ credit: 1 });
    }
  }
}
