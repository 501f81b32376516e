// The one HTTP client rule, for the browser's enhanced fetches and the
// server's outbound calls alike: retry on 408, 409, 425, 429, 500, 502, 503, 504 (bounded, with
// exponential backoff, honouring a short Retry-After), and treat 400–599 as errors.
// Pure: the fetch function and the sleep come in as arguments.

export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

export const isErrorStatus = (status: number) => status >= 400 && status <= 599;

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly url: string,
    /** null when no answer came (network failure, timeout). */
    readonly status: number | null,
    /** The parsed JSON body, or the text, of the failed answer. */
    readonly data: unknown,
    message: string,
  ) {
    super(message);
  }
}

export type RetryOptions = {
  fetcher?: typeof fetch;
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds to wait before attempt `attempt` (1-based retries), capped; Retry-After wins when shorter than the cap. */
export function retryDelay(attempt: number, retryAfter: string | null, baseDelayMs: number, maxDelayMs: number): number {
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
  if (seconds !== null) return Math.min(seconds * 1000, maxDelayMs);
  return Math.min(baseDelayMs * 2 ** (attempt - 1), maxDelayMs);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Fetches with the retry rule; resolves with the successful Response, rejects with HttpError. */
export async function fetchWithRetry(url: string, init: RequestInit = {}, options: RetryOptions = {}): Promise<Response> {
  const fetcher = options.fetcher ?? fetch;
  const attempts = options.attempts ?? 3;
  const base = options.baseDelayMs ?? 250;
  const max = options.maxDelayMs ?? 4000;
  const sleep = options.sleep ?? defaultSleep;
  let last: HttpError | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    let response: Response;
    try {
      response = await fetcher(url, init);
    } catch (e) {
      last = new HttpError(url, null, null, `${init.method ?? 'GET'} ${url} failed: ${e instanceof Error ? e.message : String(e)}`);
      if (attempt + 1 < attempts) await sleep(retryDelay(attempt + 1, null, base, max));
      continue;
    }
    if (!isErrorStatus(response.status)) return response;
    const data = await readBody(response);
    last = new HttpError(url, response.status, data, `${init.method ?? 'GET'} ${url} answered ${response.status}`);
    if (!RETRY_STATUSES.has(response.status) || attempt + 1 >= attempts) break;
    await sleep(retryDelay(attempt + 1, response.headers.get('Retry-After'), base, max));
  }
  throw last ?? new HttpError(url, null, null, `${init.method ?? 'GET'} ${url} failed`);
}
