import { INVERSE_VOLATILITY_WINDOW } from './simulate';
import { TRADING_DAYS_PER_YEAR } from './statistics';

// The definitions behind every number of a backtest, as plain text for the methodology page.
// Keep in step with simulate.ts and statistics.ts (and bump BACKTEST_ENGINE_VERSION on change).

export const METHODOLOGY = `How a backtest is run

Calendar. The run covers every trading day between the start and end dates on which at least one security has a price.

Signals. A rebalance happens on the last trading day of each period on or after the start date: every trading day (daily), the last trading day of each week (Monday to Sunday), month, quarter, half-year or year. Until the first one the portfolio is cash. On that day the screen sees everything known at its close: prices up to and including that close, facts filed before that day, and the universe as it was then, including companies delisted later.

Snapshots. The screen is evaluated on the point-in-time snapshot of the signal day itself, never an earlier one: the stored snapshot of that day where one is stored (month-ends and the latest day), otherwise the metrics the screen uses computed for that day from the same data by the same metrics engine.

Lookbacks. Every lookback (returns over 1 week to 5 years, moving averages, RSI, volatility, beta, 52-week high and low, and the inverse-volatility window) counts exchange trading days, not a stock's own price bars: a day on which a stock has no price keeps its previous close (a return of 0). So a 12-month return always compares with the close 252 exchange trading days earlier, however many days the stock skipped.

Selection. The passing securities are ranked by the screen's ranking (by ticker without one) and the best N are kept (or all passers). A security without prices cannot be held and is skipped.

Weights. Equal: 1/N. Market cap: proportional to the market cap on the signal day (unknown caps weigh nothing). Inverse volatility: proportional to 1 / the sample standard deviation of the daily total returns over the last ${INVERSE_VOLATILITY_WINDOW} exchange trading days up to the signal day's close (too little history gets the mean of the others). Rank: the best of N gets N shares, the next N − 1, … the last 1. With a maximum weight, larger weights are cut to it and the excess is handed to the others in proportion to their weights, repeatedly; if N × maximum < 1 the rest is held as cash.

Trades. Trades fill at the close of the next trading day after the signal, never on the signal day. Each security bought or sold pays (commission + slippage) × traded value plus the fixed cost per trade. Costs come out of the portfolio: the invested amount N solves N + rate × Σ|target − current| = value − fixed costs exactly, so targets are weights of what is left after costs. A selected security that is delisted before the trade day stays cash.

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
