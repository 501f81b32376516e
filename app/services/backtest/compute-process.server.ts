import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '../config.server';
import type { ComputeReply, ComputeRequest } from './compute-protocol';

// The job worker's side of the backtest compute process (scripts/backtest-compute.ts): one child
// process per worker, started ahead of the first backtest, ready once it has read what every run
// reads (the price panel, the securities, the stored snapshots' index), and kept warm (its price
// panel and snapshot columns stay loaded), restarted when it dies, recycles itself or the market
// file or DATA_DIR it was started for changes. The engine never runs on the worker's own thread, so an
// app process keeps answering pages while a backtest runs, and a large run's memory lives and
// dies with the child.

const ENTRY = path.join('scripts', 'backtest-compute.ts');
/**
 * The compute process's niceness (0 is the web process's; 19 the lowest priority). Not 19: on a
 * machine loaded by other work, a niceness-19 run got about 4 % of a core and hit its job's time
 * limit (measured: daily top-500 2007–2026 under load 20); at 10 pages still come first.
 */
const COMPUTE_NICENESS = 10;

/** The checkout the app runs from: the folder above this module (or the built bundle) with the entry script. */
function appRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, ENTRY)) && existsSync(path.join(dir, 'package.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

type Child = { process: ChildProcess; key: string; ready: Promise<void> };
let child: Child | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** What the compute process was started for: a change means a new one (checked before every run, so the environment is not copied for it). */
function environmentKey(): string {
  const c = config();
  const env = process.env;
  return [c.marketDb, c.dataDir, env.NODE_ENV ?? '', env.QUARRY_TEST_JOB_STEP_DELAY_MS ?? '', env.QUARRY_TEST_MAX_RESULT_BYTES ?? ''].join(
    '\n',
  );
}

function start(): Child {
  const key = environmentKey();
  if (child && child.key === key && child.process.exitCode === null && child.process.connected) return child;
  const c = config();
  const env: NodeJS.ProcessEnv = { ...process.env, MARKET_DB: c.marketDb, DATA_DIR: c.dataDir };
  if (child) child.process.kill('SIGKILL');
  const root = appRoot();
  const proc = fork(path.join(root, ENTRY), [], {
    cwd: root,
    env,
    // --expose-gc: after a run, garbage is collected before the process decides it is too large to keep.
    execArgv: ['--import', 'tsx', '--expose-gc'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Pages first: on a machine with few cores the engine would otherwise take its share of CPU
  // time from the web process that serves them.
  if (proc.pid !== undefined) {
    try {
      setPriority(proc.pid, COMPUTE_NICENESS);
    } catch {
      // Not permitted here (some containers): the run still works, at the same priority.
    }
  }
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (m: ComputeReply) => {
      if (m.type !== 'ready') return;
      proc.off('message', onMessage);
      resolve();
    };
    proc.on('message', onMessage);
    proc.once('exit', (code) => reject(new Error(`The backtest compute process exited (${code ?? 'signal'}) while starting`)));
  });
  ready.catch(() => undefined);
  const started: Child = { process: proc, key, ready };
  proc.once('exit', () => {
    if (child === started) child = null;
  });
  child = started;
  return started;
}

/** Starts the compute process ahead of the first backtest (a worker calls it when it starts). */
export function warmUpComputeProcess(): void {
  try {
    start();
  } catch (e) {
    console.warn(`[jobs] could not start the backtest compute process: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Resolves once this process's compute process has read the store's data every run reads (and started, if it had not). */
export function computeProcessReady(): Promise<void> {
  return start().ready;
}

export function stopComputeProcess(): void {
  child?.process.kill('SIGKILL');
  child = null;
}

export type ComputeOutcome = Extract<ComputeReply, { type: 'done' } | { type: 'failed' }>;
export type ComputeStoring = Extract<ComputeReply, { type: 'storing' }>;

/**
 * Runs one backtest in the compute process, which stores the result in the backtest's row. `onProgress` may throw to stop the run (the job was
 * cancelled or lost): the compute process is then killed, and a fresh one serves the next run.
 * `onStoring` hears that the result is being stored (with its light part when that is small).
 */
export function computeInChild(
  request: { backtestId: string; key: string; screen: unknown; params: unknown },
  onProgress: (fraction: number, message: string) => Promise<void>,
  onStoring: (storing: ComputeStoring) => void = () => undefined,
): Promise<ComputeOutcome> {
  const run = queue.then(() => runOne(request, onProgress, onStoring));
  queue = run.catch(() => undefined);
  return run;
}

async function runOne(
  request: { backtestId: string; key: string; screen: unknown; params: unknown },
  onProgress: (fraction: number, message: string) => Promise<void>,
  onStoring: (storing: ComputeStoring) => void,
  again = true,
): Promise<ComputeOutcome> {
  const c = start();
  await c.ready;
  const id = randomUUID();
  return new Promise<ComputeOutcome>((resolve, reject) => {
    let settled = false;
    /** Whether the process answered this run at all. */
    let heard = false;
    let reporting: Promise<void> = Promise.resolve();
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      c.process.off('message', onMessage);
      c.process.off('exit', onExit);
      fn();
    };
    const onMessage = (m: ComputeReply) => {
      if (m.type !== 'ready' && m.id === id) heard = true;
      if (m.type === 'progress' && m.id === id) {
        reporting = reporting
          .then(() => onProgress(m.fraction, m.message))
          .catch((e: unknown) => {
            // Stopped: the run is abandoned with its process.
            stopComputeProcess();
            finish(() => reject(e));
          });
      } else if (m.type === 'storing' && m.id === id) {
        onStoring(m);
      } else if ((m.type === 'done' || m.type === 'failed') && m.id === id) {
        // Progress reports already under way land before the outcome.
        void reporting.then(() => finish(() => resolve(m)));
      }
    };
    const onExit = (code: number | null) => {
      // A process recycling itself after its last run (exit 0) can take the next request as it
      // ends: that run has not started, and a fresh process takes it.
      if (code === 0 && !heard && again) {
        if (child === c) child = null;
        finish(() => resolve(runOne(request, onProgress, onStoring, false)));
        return;
      }
      finish(() => reject(new Error(`The backtest compute process ended during the run (${code ?? 'killed'})`)));
    };
    c.process.on('message', onMessage);
    c.process.once('exit', onExit);
    const message: ComputeRequest = { type: 'run', id, ...request };
    c.process.send(message);
  });
}
