import { describe, expect, it } from 'vitest';
import { allowedWithoutAccess, backtestQueryRedirect, decide, decideRoute, isNoAuthPath, routeRedirect } from './access-rules';

const guest = { isGuest: true, hasAccess: false, isSuperuser: false };
const noAccess = { isGuest: false, hasAccess: false, isSuperuser: false };
const member = { isGuest: false, hasAccess: true, isSuperuser: false };
const admin = { isGuest: false, hasAccess: true, isSuperuser: true };

describe('the allow-list for users without has_access', () => {
  it('lets a guest browse the data browser but not company pages', () => {
    expect(routeRedirect('/data-browser', guest)).toEqual({ allow: true });
    expect(routeRedirect('/data-browser/12/revenue', guest)).toEqual({ allow: true });
    expect(routeRedirect('/company/AAPL/overview', guest)).toEqual({ redirect: '/data-browser' });
    expect(routeRedirect('/screener', guest)).toEqual({ redirect: '/data-browser' });
    expect(routeRedirect('/', guest)).toEqual({ redirect: '/data-browser' });
  });
  it('lets a signed-in user without access reach company pages and the profile only', () => {
    expect(routeRedirect('/company/AAPL', noAccess)).toEqual({ allow: true });
    expect(routeRedirect('/profile', noAccess)).toEqual({ allow: true });
    expect(routeRedirect('/watchlist', noAccess)).toEqual({ redirect: '/data-browser' });
    expect(routeRedirect('/backtest', noAccess)).toEqual({ redirect: '/data-browser' });
  });
  it('lets a signed-in user without access load their own profile picture, but not a guest', () => {
    expect(routeRedirect('/uploads/avatars/0123456789abcdef0123456789abcdef.webp', noAccess)).toEqual({ allow: true });
    expect(routeRedirect('/uploads/avatars/0123456789abcdef0123456789abcdef.webp', guest)).toEqual({ redirect: '/data-browser' });
    expect(routeRedirect('/uploads/other', noAccess)).toEqual({ redirect: '/data-browser' });
  });
  it('keeps the exact list of the spec', () => {
    for (const p of [
      '/finish-profile-creation',
      '/otp',
      '/forgot-password',
      '/reset-password',
      '/register',
      '/login',
      '/profile',
      '/oauth',
      '/oauth/google',
    ]) {
      expect(allowedWithoutAccess(p, true)).toBe(true);
    }
    expect(allowedWithoutAccess('/profiles', false)).toBe(false);
    expect(allowedWithoutAccess('/admin', false)).toBe(false);
  });
});

describe('superuser and query rules', () => {
  it('sends non-superusers away from /admin to /', () => {
    expect(routeRedirect('/admin', member)).toEqual({ redirect: '/' });
    expect(routeRedirect('/admin', noAccess)).toEqual({ redirect: '/' });
    expect(routeRedirect('/admin', admin)).toEqual({ allow: true });
    // Every page below /admin (one user's page) falls under the same rule.
    expect(routeRedirect('/admin/users/abc', member)).toEqual({ redirect: '/' });
    expect(routeRedirect('/admin/users/abc', admin)).toEqual({ allow: true });
  });
  it('lets users with access anywhere else', () => {
    for (const p of ['/', '/screener', '/screener/manage', '/watchlist', '/backtest', '/company/X/chart']) {
      expect(routeRedirect(p, member)).toEqual({ allow: true });
    }
  });
  it('needs screener_id or backtest_id on /backtest', () => {
    expect(backtestQueryRedirect(new URL('http://x/backtest'))).toBe('/screener');
    expect(backtestQueryRedirect(new URL('http://x/backtest?screener_id='))).toBe('/screener');
    expect(backtestQueryRedirect(new URL('http://x/backtest?screener_id=abc'))).toBeNull();
    expect(backtestQueryRedirect(new URL('http://x/backtest?backtest_id=1'))).toBeNull();
    expect(backtestQueryRedirect(new URL('http://x/backtest/'))).toBe('/screener');
    expect(backtestQueryRedirect(new URL('http://x/backtest/methodology'))).toBeNull();
    expect(backtestQueryRedirect(new URL('http://x/backtest/shared/abc'))).toBeNull();
  });
  it('flags the welcome-layout pages as needing no authentication', () => {
    expect(isNoAuthPath('/login')).toBe(true);
    expect(isNoAuthPath('/oauth/github')).toBe(true);
    expect(isNoAuthPath('/loginx')).toBe(false);
    expect(isNoAuthPath('/profile')).toBe(false);
  });
});

describe('one decision for pages and API', () => {
  const on = { guestMode: true };
  const off = { guestMode: false };
  it('names what is needed: sign in (401), an account with access or a superuser (403)', () => {
    expect(decide('/screener', 'anonymous', on)).toMatchObject({ refuse: { need: 'sign-in', status: 401, redirect: '/data-browser' } });
    expect(decide('/data-browser', 'anonymous', on)).toEqual({ allow: true });
    expect(decide('/data-browser', 'anonymous', off)).toMatchObject({ refuse: { status: 401, redirect: '/login' } });
    expect(decide('/data-browser', guest, off)).toMatchObject({
      refuse: { status: 401, detail: expect.stringMatching(/Guest access is turned off/) },
    });
    expect(decide('/company', guest, on)).toMatchObject({
      refuse: { need: 'access', status: 403, detail: expect.stringMatching(/guests may only use the data browser/) },
    });
    expect(decide('/backtest', noAccess, on)).toMatchObject({ refuse: { need: 'access', status: 403, redirect: '/data-browser' } });
    expect(decide('/admin', member, on)).toMatchObject({ refuse: { need: 'superuser', status: 403, redirect: '/' } });
    expect(decide('/login', 'anonymous', off)).toEqual({ allow: true });
  });
  it('decides API routes as the page that shows the same data', () => {
    expect(decideRoute('api.v1.screener.run', noAccess, on)).toEqual(decide('/screener', noAccess, on));
    expect(decideRoute('api.v1.company-overview.$id', 'anonymous', on)).toMatchObject({ refuse: { status: 401 } });
    expect(decideRoute('api.v1.company-overview.$id', noAccess, on)).toEqual({ allow: true });
    expect(decideRoute('api.v1.auth.me', guest, { ...on, method: 'GET' })).toEqual({ allow: true });
    expect(decideRoute('api.v1.auth.me', guest, { ...on, method: 'PATCH' })).toMatchObject({ refuse: { need: 'account', status: 403 } });
    expect(decideRoute('api.v2.auth.signup', 'anonymous', off)).toEqual({ allow: true });
  });
});
