// The Prefer request header (RFC 7240) as far as the API honours it: `wait=N`, the seconds a
// client is willing to wait for a request to be done before it is answered (a backtest's run:
// the answer then carries the result instead of a status to poll), and `respond-async`, a client
// that wants the answer at once and will poll. Preferences the API does not know, and a wait
// that is not a whole number of seconds, are ignored, as the RFC asks.

/** The longest wait the API grants, whatever a client asks for. */
export const MAX_PREFERRED_WAIT_SECONDS = 30;

type Preference = { token: string; value: string | null };

function preferences(request: Request): Preference[] {
  const header = request.headers.get('Prefer');
  if (!header) return [];
  return header.split(',').map((preference) => {
    const [token, ...rest] = preference.split(';')[0].split('=');
    return { token: token.trim().toLowerCase(), value: rest.length === 1 ? rest[0].trim().replace(/^"(.*)"$/, '$1') : null };
  });
}

/** The wait a request asks for in seconds (capped), or null when it asks for none. */
export function preferredWait(request: Request): number | null {
  const wait = preferences(request).find((p) => p.token === 'wait' && p.value !== null);
  if (!wait || !/^\d{1,9}$/.test(wait.value ?? '')) return null;
  return Math.min(Number(wait.value), MAX_PREFERRED_WAIT_SECONDS);
}

/** The Preference-Applied header of an answer that waited `seconds` (RFC 7240 §3). */
export function waitApplied(seconds: number): Record<string, string> {
  return { 'Preference-Applied': `wait=${seconds}` };
}

/**
 * How long a request that starts work may wait for it before answering: the `wait=N` it asks
 * for; none with `respond-async` alone (answered at once, to be polled); otherwise the
 * operation's default (a short run then needs no second request). `headers`: the
 * Preference-Applied header for what was honoured.
 */
export function startedWorkWait(request: Request, defaultSeconds: number): { seconds: number; headers: Record<string, string> } {
  const asked = preferredWait(request);
  const async = preferences(request).some((p) => p.token === 'respond-async' && p.value === null);
  if (asked !== null) return { seconds: asked, headers: { 'Preference-Applied': `${async ? 'respond-async, ' : ''}wait=${asked}` } };
  if (async) return { seconds: 0, headers: { 'Preference-Applied': 'respond-async' } };
  return { seconds: Math.min(defaultSeconds, MAX_PREFERRED_WAIT_SECONDS), headers: {} };
}
