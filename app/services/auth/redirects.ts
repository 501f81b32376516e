// `redirectTo` parameters accept same-origin paths only: a link cannot send a signed-in user on
// to a look-alike site. Pure: used by the sign-in routes, the OAuth flow and the guards alike.

const MAX_REDIRECT_LENGTH = 2048;
const PROBE_ORIGIN = 'http://quarry.invalid';

/**
 * Returns `value` as a same-origin path ("/screener?x=1#y"), or `fallback` when it is missing,
 * not a string, or could leave the site: protocol-relative ("//evil", "/\\evil"), a scheme
 * ("javascript:", "https://"), control characters or whitespace (browsers drop tabs and
 * newlines, turning "/\t/evil" into "//evil"), or anything the URL parser would take elsewhere.
 */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/u.test(value)) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (parsed.origin !== PROBE_ORIGIN) return fallback;
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  // The parser may normalise "/.//evil" into "//evil": check the result as well as the input.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  return path;
}

/** The path (with query) of a request, for "come back here after signing in". */
export function currentPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Where a sign-in or a new account goes: the page asked for (`redirectTo`) when the account has
 * access, otherwise the finish-profile page, which keeps the wish for after it.
 */
export function afterSignInPath(hasAccess: boolean, redirectTo: unknown): string {
  const wanted = safeRedirectPath(redirectTo, '');
  if (hasAccess) return wanted || '/';
  return wanted ? `/finish-profile-creation?${new URLSearchParams({ redirectTo: wanted })}` : '/finish-profile-creation';
}
