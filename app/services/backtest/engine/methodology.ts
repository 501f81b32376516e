import { INVERSE_VOLATILITY_WINDOW } from './simulate';
import { TRADING_DAYS_PER_YEAR } from './statistics';

// The definitions behind every number of a backtest, as plain text for the methodology page.
// Keep in step with simulate.ts and statistics.ts (and bump BACKTEST_ENGINE_VERSION on change).

export const METHODOLOGY = `How a backtest is run

Calendar. The run covers every trading day between the start and end dates on which at least one security has a price.

Signals. The first trading day of the run and the first trading day of every later week (Monday start), month, quarter, half-year or year are signal days. On a signal day the screen is evaluated on that day's point-in-time snapshot: only facts filed before the day, prices up to its close, and the universe as it was then, including companies delisted later.

Snapshots. A signal day uses the newest stored point-in-time snapshot on or before it (snapshots are stored at month-ends, weekly when built, and for the latest day). Weekly and daily rebalancing therefore reuse the month-end values of fundamentals and price-based metrics until the next snapshot; nothing known after the signal day is used. A signal day with no stored snapshot shortly before it gets one computed for that day.

Selection. The passing securities are ranked by the screen's ranking (by ticker without one) and the best N are kept (or all passers). A security without prices cannot be held and is skipped.

Weights. Equal: 1/N. Market cap: proportional to the market cap on the signal day (unknown caps weigh nothing). Inverse volatility: proportional to 1 / the sample standard deviation of the last ${INVERSE_VOLATILITY_WINDOW} daily total returns up to the signal day (too little history gets the mean of the others). Rank: the best of N gets N shares, the next N − 1, … the last 1. With a maximum weight, larger weights are cut to it and the excess is handed to the others in proportion to their weights, repeatedly; if N × maximum < 1 the rest is held as cash.

Trades. Trades happen at the close of the trading day after the signal, never on the signal day. Each security bought or sold pays (commission + slippage) × traded value plus the fixed cost per trade. Costs come out of the portfolio: the invested amount N solves N + rate × Σ|target − current| = value − fixed costs exactly, so targets are weights of what is left after costs. A selected security that is delisted before the trade day stays cash.

Valuation. Positions are held in units of each security's total-return index (dividends reinvested, splits neutral) and valued at every close; a security without a bar that day keeps its last value. A holding that is delisted becomes cash at its last value on its last trading day and stays cash until the next rebalance. Cash earns nothing.

Benchmark. A security: its total-return index scaled to the initial capital from the first day. The equal-weighted universe: every security of the screen's universe (before the rules) in equal weights, traded on the same days as the strategy, without costs.

Survivors only. The same backtest is run again on a universe restricted to the companies still listed at the end date (the companies a database without delisted securities would hold), with the same parameters, benchmark and costs. The difference between its total return and the full run's shows how much survivorship bias would have flattered the result; the companies left out are counted. When the benchmark itself did not survive, or no company did, the comparison is not made.

Statistics. Daily returns r are simple close-to-close returns of the equity curve. Annualisation uses ${TRADING_DAYS_PER_YEAR} trading days; years are calendar days / 365.25. Standard deviations and covariances are sample ones (n − 1).
- Total return: last value / first value − 1.
- CAGR: (last / first)^(1 / years) − 1.
- Annual volatility: stdev(r) × √${TRADING_DAYS_PER_YEAR}.
- Risk-free rate: the annual rate rf becomes the daily rate (1 + rf)^(1/${TRADING_DAYS_PER_YEAR}) − 1.
- Sharpe: mean(r − rf_daily) / stdev(r − rf_daily) × √${TRADING_DAYS_PER_YEAR}.
- Sortino: mean(r − rf_daily) / downside deviation × √${TRADING_DAYS_PER_YEAR}, the downside deviation being √(Σ min(0, r − rf_daily)² / n) over all days.
- Drawdown: value / highest value so far − 1. Maximum drawdown: its lowest value, with the peak before it, the trough, and the first day back at the peak value (recovery; none if not recovered).
- Calmar: CAGR / |maximum drawdown|.
- Beta: cov(r, r_benchmark) / var(r_benchmark).
- Alpha (Jensen): (mean(r − rf_daily) − beta × mean(r_benchmark − rf_daily)) × ${TRADING_DAYS_PER_YEAR}.
- Tracking error: stdev(r − r_benchmark) × √${TRADING_DAYS_PER_YEAR}. Information ratio: mean(r − r_benchmark) × ${TRADING_DAYS_PER_YEAR} / tracking error.
- Turnover: one-way, Σ over rebalances of traded value / 2 / portfolio value before trading, divided by years (the first purchase counts as 50 %).
- Hit rate: the share of rebalance periods (from one trade day to the next, the last one to the end) with a positive return; against the benchmark, the share beating the benchmark's return over the same period.
- Cost drag: total costs / average equity / years.
- Monthly and yearly returns: the last value of the period / the last value of the period before − 1 (the first period starts from the initial capital). Best and worst month and year are taken from these.
`;
