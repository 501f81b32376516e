import { createCookieSessionStorage, type Session } from '@remix-run/node';
import { config, type AppConfig } from '../config.server';
import type { ModalState, PageNotice } from '../http/modal-state';
import { initialsOf, type AccountUser, type DeniedPage, type IssuedToken } from './types';

// The session cookie. It holds tokens and display fields only: never a password.

export type SessionData = {
  guest: boolean;
  guestMiddlewareHelper: boolean;
  accessToken: string;
  tokenType: string;
  initials: string;
  fullName: string;
  profilePicture: string;
};

export type SessionFlash = { modal: ModalState; denied: DeniedPage; notice: PageNotice };
/** Every flash key; the Record type fails the build when SessionFlash gains one not listed here. */
const FLASH_KEYS: Record<keyof SessionFlash, true> = { modal: true, denied: true, notice: true };

export const SESSION_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

/** The cookie storage of the configuration it was made from (a test or benchmark may configure the process again). */
let storage: { from: AppConfig; cookies: ReturnType<typeof createCookieSessionStorage<SessionData, SessionFlash>> } | undefined;

function sessionStorage() {
  const c = config();
  if (storage?.from !== c)
    storage = {
      from: c,
      cookies: createCookieSessionStorage<SessionData, SessionFlash>({
        cookie: {
          name: '__session',
          httpOnly: true,
          maxAge: SESSION_MAX_AGE_SECONDS,
          path: '/',
          sameSite: 'lax',
          secrets: c.sessionSecrets,
          secure: c.isProduction,
        },
      }),
    };
  return storage.cookies;
}

export type QuarrySession = Session<SessionData, SessionFlash>;

export function getSession(request: Request): Promise<QuarrySession> {
  return sessionStorage().getSession(request.headers.get('Cookie'));
}

export function commitSession(session: QuarrySession): Promise<string> {
  return sessionStorage().commitSession(session);
}

export function setGuestToken(session: QuarrySession, token: IssuedToken): void {
  session.set('guest', true);
  session.set('guestMiddlewareHelper', true);
  session.set('accessToken', token.access_token);
  session.set('tokenType', token.token_type);
  session.unset('initials');
  session.unset('fullName');
  session.unset('profilePicture');
}

/** After a code is verified or an account created: tokens and display fields. */
export function setSignedIn(session: QuarrySession, token: IssuedToken, user: Pick<AccountUser, 'full_name' | 'profile_picture'>): void {
  session.set('guest', false);
  session.set('guestMiddlewareHelper', false);
  session.set('accessToken', token.access_token);
  session.set('tokenType', token.token_type);
  setDisplayFields(session, user);
}

export function setDisplayFields(session: QuarrySession, user: Pick<AccountUser, 'full_name' | 'profile_picture'>): void {
  session.set('fullName', user.full_name);
  session.set('initials', initialsOf(user.full_name));
  if (user.profile_picture) session.set('profilePicture', user.profile_picture);
  else session.unset('profilePicture');
}

/** Logout: clears name, initials, picture and tokens, and sets guest to true. */
export function setSignedOut(session: QuarrySession): void {
  session.unset('accessToken');
  session.unset('tokenType');
  session.unset('initials');
  session.unset('fullName');
  session.unset('profilePicture');
  session.set('guest', true);
  session.set('guestMiddlewareHelper', false);
}

/** Whether the session carries a message the next page shows once (and then forgets). */
export function carriesFlash(session: QuarrySession): boolean {
  return (Object.keys(FLASH_KEYS) as (keyof SessionFlash)[]).some((key) => session.has(key));
}

export function flashModal(session: QuarrySession, modal: ModalState): void {
  session.flash('modal', modal);
}

/** Post/redirect/get with a modal shown on the next page (modals are driven by action results). */
export async function redirectWithModal(session: QuarrySession, to: string, modal: ModalState): Promise<Response> {
  flashModal(session, modal);
  return new Response(null, { status: 302, headers: { Location: to, 'Set-Cookie': await commitSession(session) } });
}

/** Post/redirect/get with a notice shown in the next page (see PageNotice). */
export async function redirectWithNotice(session: QuarrySession, to: string, notice: PageNotice): Promise<Response> {
  session.flash('notice', notice);
  return new Response(null, { status: 302, headers: { Location: to, 'Set-Cookie': await commitSession(session) } });
}

/**
 * A form's short answer after a redirect: in the page it goes back to (`inPage`, a notice, e.g.
 * beside a results row) or in the page's dialog (an error one for `mode: 'error'`).
 */
export function redirectWithAnswer(
  session: QuarrySession,
  to: string,
  said: Omit<PageNotice, 'row'>,
  opts: { inPage: boolean; row?: number; title: string },
): Promise<Response> {
  if (opts.inPage) return redirectWithNotice(session, to, { ...said, row: opts.row });
  if (said.mode === 'error') return errorModalRedirect(session, to, opts.title)(said.text);
  return redirectWithModal(session, to, { kind: 'info', title: opts.title, content: said.text, mode: said.mode });
}

/** The page's error modal for a refused change: back to `to`, where the modal says why. */
export function errorModalRedirect(session: QuarrySession, to: string, title: string): (detail: string) => Promise<Response> {
  return (detail) => redirectWithModal(session, to, { kind: 'error', title, error: { detail }, warning: true });
}

export async function redirectWithSession(session: QuarrySession, to: string): Promise<Response> {
  return new Response(null, { status: 302, headers: { Location: to, 'Set-Cookie': await commitSession(session) } });
}
