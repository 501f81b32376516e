import { fetchWithRetry, HttpError } from '../http/retrying-fetch';

// Outbound GETs to identity providers (discovery, userinfo, GitHub's API), with the one retry
// rule of ../http/retrying-fetch.ts. The token exchange itself goes through arctic, inside
// remix-auth-oauth2.

const TIMEOUT_MS = 15_000;

export { HttpError as ProviderHttpError };

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetchWithRetry(url, {
    headers: { Accept: 'application/json', 'User-Agent': 'Quarry', ...headers },
    // One budget for all attempts: a sign-in should not hang on a slow provider.
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  try {
    return (await response.json()) as unknown;
  } catch {
    throw new HttpError(url, response.status, null, `GET ${url} did not answer JSON`);
  }
}
