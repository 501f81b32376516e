// Shapes shared by the auth services, the JSON API and the HTML routes.

/** The user record the API answers (GET /api/v1/auth/me). */
export type PublicUser = {
  id: string;
  email: string;
  full_name: string;
  profile_picture: string | null;
  has_access: boolean;
};

/** A signed-in account as the server sees it (never sent to the browser as is). */
export type AccountUser = PublicUser & {
  is_superuser: boolean;
  profile_finished: boolean;
  disabled: boolean;
};

/** The API's view of an account: these fields and nothing else (no hash, no token). */
export function publicUser(user: AccountUser): PublicUser {
  const { id, email, full_name, profile_picture, has_access } = user;
  return { id, email, full_name, profile_picture, has_access };
}

/** Token response. */
export type IssuedToken = { access_token: string; token_type: 'bearer' };

/** Who is calling: a real account, or a guest holding an automatic anonymous token. */
export type Caller = { kind: 'user'; user: AccountUser; tokenHash: string } | { kind: 'guest' };

/** Request facts the services use for rate limits and links. */
export type RequestContext = { clientAddress?: string };

/** "first letter of each word of the full name". */
export function initialsOf(fullName: string): string {
  return fullName
    .trim()
    .split(/\s+/u)
    .filter(Boolean)
    .map((word) => Array.from(word)[0]?.toLocaleUpperCase() ?? '')
    .join('');
}

/** A page the guard turned the caller away from: shown on the page they land on, with a way in. */
export type DeniedPage = { path: string; guest: boolean };
