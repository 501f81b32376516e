import { parentPort } from 'node:worker_threads';
import { batchBuffers, demoBatch, type DemoBatch } from './batch';
import { createDemoUniverse, type DemoOptions } from './universe';

// The demo's generator thread (batches.server.ts): generates the universe's companies a batch at
// a time, as far ahead as the thread writing them has given it credit for, and posts each batch
// with its arrays moved, not copied.

export type GenerateRequest = { start: { options: DemoOptions; batchSize: number } } | { credit: number };
export type GenerateReply = { ready: true } | { batch: DemoBatch } | { done: true } | { error: string };

const port = parentPort;
if (port) {
  let job: { universe: ReturnType<typeof createDemoUniverse>; batchSize: number; next: number } | null = null;
  let credit = 0;
  const reply = (m: GenerateReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  port.on('message', (m: GenerateRequest) => {
    try {
      if ('start' in m) job = { universe: createDemoUniverse(m.start.options), batchSize: m.start.batchSize, next: 0 };
      else credit += m.credit;
      while (job && credit > 0) {
        const total = job.universe.plan.companies.length;
        if (job.next >= total) {
          reply({ done: true });
          job = null;
          break;
        }
        const to = Math.min(total, job.next + job.batchSize);
        const batch = demoBatch(job.universe, job.next, to);
        job.next = to;
        credit--;
        reply({ batch }, batchBuffers(batch));
      }
    } catch (e) {
      job = null;
      reply({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
  reply({ ready: true });
}
