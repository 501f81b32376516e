// The screener engine: pure, no I/O. Typical use (a page, or a backtest at each rebalance):
//   const compiled = compileScreen(screen);                     // once
//   const prepared = prepareUniverse(snapshot, securities);     // once per snapshot
//   const page = screenPage(compiled, prepared);                // rows, count, pages
//   const { ranked } = matchScreen(compiled, prepared);         // row indices, best first
//   const why = explainSecurity(compiled, prepared, permaticker);
export * from './types';
export { prepareUniverse } from './universe';
export { compileScreen, matchRanked, matchScreen, resultRow, screenPage } from './run';
export { explainSecurity } from './explain';
