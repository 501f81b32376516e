// data.sec.gov over HTTP, as the SEC's fair-access policy asks: a declared User-Agent on every
// request and at most 10 requests per second. Transient answers (408 409 425 429 and 5xx, as
// in ../../../http/retrying-fetch.ts) are retried a few times with backoff; other 4xx are
// errors (404 = no such document).

const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 4;

export class SecHttpError extends Error {
  override name = 'SecHttpError';
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url}: HTTP ${status}`);
  }
}

export type EdgarClient = {
  getJson(url: string): Promise<unknown>;
  /** Requests sent so far, retries included. */ readonly requests: number;
};

export type EdgarClientOptions = {
  userAgent: string;
  fetch: typeof fetch;
  /** Requests per second (the SEC allows 10). */
  rate?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export function createEdgarClient(options: EdgarClientOptions): EdgarClient {
  const rate = options.rate ?? 10;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => Date.now());
  // A sliding window of the last `rate` request times: a new request waits until the oldest is
  // more than a second old, so no one-second window ever holds more than `rate` requests.
  const recent: number[] = [];
  let gate: Promise<void> = Promise.resolve();
  const slot = () => {
    const next = gate.then(async () => {
      if (recent.length >= rate) {
        const wait = recent[0] + 1000 - now();
        if (wait > 0) await sleep(wait);
        recent.shift();
      }
      recent.push(now());
    });
    gate = next;
    return next;
  };

  let requests = 0;
  return {
    get requests() {
      return requests;
    },
    async getJson(url) {
      for (let attempt = 1; ; attempt++) {
        await slot();
        requests += 1;
        const response = await options.fetch(url, { headers: { 'User-Agent': options.userAgent, Accept: 'application/json' } });
        if (response.ok) {
          const body = await response.text();
          try {
            return JSON.parse(body) as unknown;
          } catch (e) {
            // A connection cut mid-document: say which document rather than only where JSON broke.
            throw new Error(
              `${url}: the answer is not valid JSON (${body.length} bytes; cut off?): ${e instanceof Error ? e.message : String(e)}`,
            );
          }
        }
        if (RETRY_STATUSES.has(response.status) && attempt < MAX_ATTEMPTS) {
          const retryAfter = Number(response.headers.get('retry-after'));
          await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 500 * 2 ** (attempt - 1));
          continue;
        }
        throw new SecHttpError(url, response.status);
      }
    },
  };
}

export const DEFAULT_EDGAR_URL = 'https://data.sec.gov';
/** `base` is data.sec.gov or what SEC_EDGAR_URL points at (a proxy, a test server). */
export const companyFactsUrl = (cik: string, base = DEFAULT_EDGAR_URL) => `${base}/api/xbrl/companyfacts/CIK${cik}.json`;
export const submissionsUrl = (cik: string, base = DEFAULT_EDGAR_URL) => `${base}/submissions/CIK${cik}.json`;
export const DEFAULT_ARCHIVES_URL = 'https://www.sec.gov';
/** The SEC's ticker list (with exchanges); `base` is www.sec.gov or what SEC_EDGAR_URL points at. */
export const tickersUrl = (base = DEFAULT_ARCHIVES_URL) => `${base}/files/company_tickers_exchange.json`;
