// Outbound GETs to identity providers (discovery, userinfo, GitHub's API). DESIGN §2 / spec §7:
// retry on 408, 409, 425, 429, 500, 502, 503, 504 (bounded, with backoff); 400–599 are errors.

export const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const ATTEMPTS = 3;
const TIMEOUT_MS = 10_000;

export class ProviderHttpError extends Error {
  override name = 'ProviderHttpError';
  constructor(
    readonly url: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  let lastError: ProviderHttpError | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(250 * 2 ** (attempt - 1));
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Accept: 'application/json', 'User-Agent': 'Quarry', ...headers },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'follow',
      });
    } catch (e) {
      lastError = new ProviderHttpError(url, null, `GET ${url} failed: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (response.ok) {
      try {
        return (await response.json()) as unknown;
      } catch {
        throw new ProviderHttpError(url, response.status, `GET ${url} did not answer JSON`);
      }
    }
    lastError = new ProviderHttpError(url, response.status, `GET ${url} answered ${response.status}`);
    await response.body?.cancel();
    if (!RETRY_STATUSES.has(response.status)) break;
  }
  throw lastError ?? new ProviderHttpError(url, null, `GET ${url} failed`);
}
