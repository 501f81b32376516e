import v8 from 'node:v8';

// V8 lets a busy process's heap grow to up to four times what survived its last full collection
// before it collects again. Under 50 signed-in clients the web process's resident memory wandered
// between 530 and 700 MB from run to run; with the heap let grow to twice its live size it held at
// 360–390 MB with the same throughput (README, Benchmarks). It is no ceiling: an import that needs
// a large heap still gets one. A --heap-growing-percent given on the command line wins.
const PERCENT = 100;

/** Sets V8's heap growing factor for this process (all its threads) unless node was given one. */
export function boundHeapGrowth() {
  if (process.execArgv.some((a) => /^--heap[-_]growing[-_]percent/.test(a))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${PERCENT}`);
}
