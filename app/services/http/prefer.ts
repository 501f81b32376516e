// The Prefer request header (RFC 7240) as far as the API honours it: `wait=N`, the seconds a
// client is willing to wait for a request to be done before it is answered (a backtest's run:
// the answer then carries the result instead of a status to poll). Preferences the API does not
// know, and a wait that is not a whole number of seconds, are ignored, as the RFC asks.

/** The longest wait the API grants, whatever a client asks for. */
export const MAX_PREFERRED_WAIT_SECONDS = 30;

/** The wait a request asks for in seconds (capped), or null when it asks for none. */
export function preferredWait(request: Request): number | null {
  const header = request.headers.get('Prefer');
  if (!header) return null;
  for (const preference of header.split(',')) {
    const [token, ...rest] = preference.split(';')[0].split('=');
    if (token.trim().toLowerCase() !== 'wait' || rest.length !== 1) continue;
    const value = rest[0].trim().replace(/^"(.*)"$/, '$1');
    if (!/^\d{1,9}$/.test(value)) return null;
    return Math.min(Number(value), MAX_PREFERRED_WAIT_SECONDS);
  }
  return null;
}

/** The Preference-Applied header of an answer that waited `seconds` (RFC 7240 §3). */
export function waitApplied(seconds: number): Record<string, string> {
  return { 'Preference-Applied': `wait=${seconds}` };
}
