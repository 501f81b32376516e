import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';

// A local stand-in for Tiingo's end-of-day API, speaking its documented wire format: JSON arrays
// of daily bars at /tiingo/daily/<ticker>/prices?startDate=…, the key in an
// `Authorization: Token …` header, 404 with a `detail` for an unknown ticker, and the ticker list
// as supported_tickers.zip. Tests queue failures (429 + Retry-After, 5xx, a cut-off body) per ticker.

export type FakeBar = {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  divCash?: number;
  splitFactor?: number;
};

export type Failure = { status: 429; retryAfter: string } | { status: 400 | 500 | 503 } | { truncated: true };

export type FakeTiingo = {
  url: string;
  bars: Map<string, FakeBar[]>;
  /** Failures served, in order, before the ticker's real answer. */
  failures: Map<string, Failure[]>;
  /** Every prices request: ticker and startDate. */
  requests: { ticker: string; startDate: string | null; auth: string | null }[];
  tickersCsv: string;
  close(): Promise<void>;
};

export async function startFakeTiingo(port: number, apiKey: string): Promise<FakeTiingo> {
  const fake: Omit<FakeTiingo, 'url' | 'close'> = { bars: new Map(), failures: new Map(), requests: [], tickersCsv: '' };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/docs/tiingo/daily/supported_tickers.zip') {
      const zip = zipSync({ 'supported_tickers.csv': strToU8(fake.tickersCsv) });
      res.writeHead(200, { 'Content-Type': 'application/zip' });
      res.end(Buffer.from(zip));
      return;
    }
    const match = /^\/tiingo\/daily\/([^/]+)\/prices$/.exec(url.pathname);
    if (!match) return json(404, { detail: 'Not found.' });
    const auth = req.headers.authorization ?? null;
    const ticker = decodeURIComponent(match[1]).toUpperCase();
    const startDate = url.searchParams.get('startDate');
    fake.requests.push({ ticker, startDate, auth });
    if (auth !== `Token ${apiKey}`) return json(401, { detail: 'Invalid token.' });
    const failures = fake.failures.get(ticker);
    const failure = failures?.shift();
    if (failure && 'truncated' in failure) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('[{"date":"2024-01-02T00:00:00.000Z","close":1');
      return;
    }
    if (failure && failure.status === 429) return json(429, { detail: 'Too many requests' }, { 'Retry-After': failure.retryAfter });
    if (failure) return json(failure.status, { detail: 'Server error' });
    const bars = fake.bars.get(ticker);
    if (!bars) return json(404, { detail: `Error: Ticker '${ticker}' not found` });
    json(
      200,
      bars
        .filter((b) => startDate === null || b.date >= startDate)
        .map((b) => ({
          date: `${b.date}T00:00:00.000Z`,
          close: b.close,
          high: b.high,
          low: b.low,
          open: b.open,
          volume: b.volume,
          adjClose: b.close,
          adjHigh: b.high,
          adjLow: b.low,
          adjOpen: b.open,
          adjVolume: b.volume,
          divCash: b.divCash ?? 0,
          splitFactor: b.splitFactor ?? 1,
        })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // Port 0 takes a free one: test files of several checkouts may run at once.
  const bound = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Weekday bars from `start`, a close drifting by `step` a day. */
export function weekdayBars(start: string, count: number, firstClose: number, step = 1): FakeBar[] {
  const out: FakeBar[] = [];
  const d = new Date(`${start}T00:00:00Z`);
  let close = firstClose;
  while (out.length < count) {
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) {
      out.push({ date: d.toISOString().slice(0, 10), open: close - 0.5, high: close + 1, low: close - 1, close, volume: 1_000_000 });
      close += step;
    }
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}
