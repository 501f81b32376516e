import { Worker } from 'node:worker_threads';

// Worker threads of long builds (the snapshot evaluators, the demo generator): each entry is an
// .mjs file that loads its TypeScript module through tsx (worker threads do not inherit the
// loader) and posts `{ ready: true }` once loaded. Callers fall back to their own thread when a
// worker cannot start (a bundle without the entry's files).

/** Starts the worker at `entry` and resolves once it says it is ready. */
export function startReadyWorker(entry: URL): Promise<Worker> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(entry);
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    const fail = (e: unknown) => {
      void worker.terminate();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the worker ${entry.pathname} exited (${code}) before it was ready`)));
    worker.once('message', (m: unknown) => {
      worker.removeAllListeners('error');
      worker.removeAllListeners('exit');
      if (typeof m === 'object' && m !== null && 'ready' in m) resolve(worker);
      else fail(new Error(`the worker ${entry.pathname} did not report ready`));
    });
  });
}
