import pThrottle from 'p-throttle';
import { z } from 'zod';

// Tiingo's end-of-day REST API (https://www.tiingo.com/documentation/end-of-day): one request per
// ticker returns its whole daily history from `startDate`, as traded (open…close, volume) with
// the day's `divCash` and `splitFactor`. The key goes in an `Authorization: Token …` header.
// Plans cap requests per hour and per day; both caps are enforced here before asking, so a long
// import waits instead of being refused, and a 429 that still comes waits for its Retry-After.

export const TiingoBarSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
  open: z.number().nullable(),
  high: z.number().nullable(),
  low: z.number().nullable(),
  close: z.number(),
  volume: z.number().nullable(),
  divCash: z.number().default(0),
  splitFactor: z.number().positive().default(1),
});

export type TiingoBar = z.infer<typeof TiingoBarSchema>;

export class TiingoError extends Error {
  override name = 'TiingoError';
  constructor(
    readonly url: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

export type TiingoClientOptions = {
  apiKey: string;
  apiUrl: string;
  tickersUrl: string;
  perHour: number;
  perDay: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told whenever a request waits (a plan limit, a 429, a retry), so progress can say so. */
  onWait?: (message: string) => void;
};

export type TiingoClient = {
  /** Daily bars from `startDate` (the whole history when null); null when Tiingo does not know the ticker. */
  dailyPrices(ticker: string, startDate: string | null): Promise<TiingoBar[] | null>;
  /** The supported_tickers.zip file, as bytes. */
  supportedTickersZip(): Promise<Uint8Array>;
  /** Requests sent so far by this client. */
  readonly requests: number;
};

const TRANSIENT = new Set([408, 425, 429, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 5;
// A 429 without Retry-After: Tiingo's caps are hourly, so a short backoff would only be refused again.
const DEFAULT_429_WAIT_MS = 60_000;
const MAX_WAIT_MS = 60 * 60_000;

/** Tiingo writes share classes with a hyphen (BRK-B); the store, like the SEC, with a dot. */
export const toTiingoTicker = (ticker: string) => ticker.trim().toUpperCase().replace(/\./g, '-');
export const fromTiingoTicker = (ticker: string) => ticker.trim().toUpperCase().replace(/-/g, '.');

/** Retry-After is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.min(Number(header) * 1000, MAX_WAIT_MS);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), MAX_WAIT_MS);
}

export function createTiingoClient(options: TiingoClientOptions): TiingoClient {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const onWait = options.onWait ?? (() => {});
  const hourly = pThrottle({
    limit: options.perHour,
    interval: 60 * 60_000,
    onDelay: () => onWait(`Tiingo: ${options.perHour} requests this hour (the plan's limit); waiting for the next hour`),
  });
  const daily = pThrottle({
    limit: options.perDay,
    interval: 24 * 60 * 60_000,
    onDelay: () => onWait(`Tiingo: ${options.perDay} requests today (the plan's limit); waiting for the next day`),
  });
  let requests = 0;
  const send = daily(
    hourly((url: string) => {
      requests += 1;
      return fetchImpl(url, { headers: { Authorization: `Token ${options.apiKey}`, 'Content-Type': 'application/json' } });
    }),
  );

  /** The body of a successful answer; null for a 404; retries transient failures and cut-off bodies. */
  async function get(address: string, read: (r: Response) => Promise<unknown>): Promise<unknown> {
    const url = address.replace(/([?&])token=[^&]*&?/, '$1').replace(/[?&]$/, '');
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await send(address);
      } catch (e) {
        if (attempt >= MAX_ATTEMPTS) throw new TiingoError(url, null, `Tiingo did not answer ${url}: ${(e as Error).message}`);
        await backoff(attempt, `Tiingo did not answer (${(e as Error).message})`);
        continue;
      }
      if (response.ok) {
        try {
          return await read(response);
        } catch (e) {
          // A body cut off mid-way (a dropped connection) parses as broken JSON: ask again.
          if (attempt >= MAX_ATTEMPTS)
            throw new TiingoError(url, response.status, `Tiingo sent an unreadable answer for ${url}: ${(e as Error).message}`);
          await backoff(attempt, 'Tiingo sent an incomplete answer');
          continue;
        }
      }
      const text = await response.text().catch(() => '');
      if (response.status === 404) return null;
      if (response.status === 401 || response.status === 403)
        throw new TiingoError(
          url,
          response.status,
          `Tiingo refused the API key (HTTP ${response.status}): check TIINGO_API_KEY. ${detail(text)}`,
        );
      if (!TRANSIENT.has(response.status) || attempt >= MAX_ATTEMPTS)
        throw new TiingoError(url, response.status, `Tiingo answered HTTP ${response.status} for ${url}. ${detail(text)}`);
      if (response.status === 429) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? DEFAULT_429_WAIT_MS;
        onWait(`Tiingo: too many requests (HTTP 429); waiting ${Math.ceil(wait / 1000)} s as it asks`);
        await sleep(wait);
      } else {
        await backoff(attempt, `Tiingo answered HTTP ${response.status}`);
      }
    }
  }

  async function backoff(attempt: number, why: string) {
    const wait = 500 * 2 ** (attempt - 1);
    onWait(`${why}; retrying in ${(wait / 1000).toFixed(1)} s`);
    await sleep(wait);
  }

  return {
    async dailyPrices(ticker, startDate) {
      const query = new URLSearchParams({ format: 'json', resampleFreq: 'daily' });
      // Tiingo answers only the latest day without a startDate.
      query.set('startDate', startDate ?? '1900-01-01');
      // Tiingo takes the key as a header or as `token`; both are sent so a proxy that only
      // passes one still works. Messages show the address without it.
      query.set('token', options.apiKey);
      const url = `${options.apiUrl}/tiingo/daily/${encodeURIComponent(toTiingoTicker(ticker))}/prices?${query}`;
      const body = await get(url, async (r) => JSON.parse(await r.text()) as unknown);
      if (body === null) return null;
      const parsed = z.array(TiingoBarSchema).safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new TiingoError(
          url.replace(/&token=[^&]*/, ''),
          200,
          `Tiingo's answer for ${ticker} is not a list of daily prices: ${issue.path.join('.')} ${issue.message}`,
        );
      }
      return parsed.data.map((b) => ({ ...b, date: b.date.slice(0, 10) }));
    },
    async supportedTickersZip() {
      const body = await get(options.tickersUrl, async (r) => new Uint8Array(await r.arrayBuffer()));
      if (body === null) throw new TiingoError(options.tickersUrl, 404, `Tiingo's ticker list is not at ${options.tickersUrl} (HTTP 404)`);
      return body as Uint8Array;
    },
    get requests() {
      return requests;
    },
  };
}

function detail(text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not JSON: the text itself, shortened
  }
  return text.slice(0, 200);
}
