// The backtest engine: pure, no I/O. Typical use by a job:
//   const params = BacktestParamsSchema.parse(form);
//   const result = runBacktest({ screen, params, prices, securities, snapshotAt, onProgress, isCancelled });
// `result` is plain data (typed arrays for the curves) stored with BACKTEST_ENGINE_VERSION.
export * from './types';
export { BACKTEST_ENGINE_VERSION, BacktestParamsSchema } from './params';
export { backtestSteps, INVERSE_VOLATILITY_WINDOW, runBacktest } from './simulate';
export { signalIndices } from './calendar';
