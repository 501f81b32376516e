"""The S&P 500 reference backtest as a plain pandas per-date loop (what bench/backtest-sp500.ts
times the app's whole backtest path against). Same methodology as bench/_sp500-reference.ts:
rebalance on the last trading day of each period, rank on that day's close with the lookback
counted in exchange trading days (a day without a bar keeps the previous close), buy the best N
with a positive score in equal weights at the next trading day's close, value every day at the
close.

    python3 bench/_sp500_reference.py PANEL.csv.gz START LOOKBACK TOP ROUNDS

Prints one JSON line: the median loop time in ms (reading the CSV is not timed: the app's data is
in its store already), the total return and the number of rebalances.
"""

import json
import sys
import time

import pandas as pd


def load(path):
    df = pd.read_csv(path)
    # Unusable rows are skipped, as the import with --skip-bad-rows does.
    prices = df[["open", "high", "low", "close"]]
    bad = df["close"].isna() | (prices <= 0).any(axis=1)
    bad |= (df["high"] < df["low"]) | (df["volume"] < 0)
    return df[~bad]


def backtest(df, start, lookback, top):
    close = df.pivot(index="date", columns="Name", values="close").sort_index()
    px = close.ffill()
    first_bar = close.notna().values.argmax(axis=0)
    dates = list(px.index)
    month = [d[:7] for d in dates]
    begin = next(i for i, d in enumerate(dates) if d >= start)
    cash = 1000.0
    units = pd.Series(dtype=float)
    pending = None
    equity = []
    rebalances = 0
    for t in range(begin, len(dates)):
        row = px.iloc[t]
        if pending is not None:
            value = cash + (units * row[units.index]).sum()
            units = value / len(pending) / row[pending] if len(pending) else pd.Series(dtype=float)
            cash = 0.0 if len(pending) else value
            pending = None
        equity.append(cash + (units * row[units.index]).sum())
        if t + 1 < len(dates) and month[t] != month[t + 1]:
            listed = (first_bar >= 0) & (t - lookback >= first_bar)
            score = (row / px.iloc[t - lookback] - 1)[listed]
            score = score[score > 0]
            pending = list(score.sort_values(ascending=False, kind="stable").index[:top])
            rebalances += 1
    return equity, rebalances


def main():
    path, start, lookback, top, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    df = load(path)
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        equity, rebalances = backtest(df, start, lookback, top)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(json.dumps({"ms": times[len(times) // 2], "total_return": equity[-1] / equity[0] - 1, "rebalances": rebalances}))


if __name__ == "__main__":
    main()
