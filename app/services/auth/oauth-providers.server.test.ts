import { describe, expect, it } from 'vitest';
import { parseOAuthProviders } from './oauth-providers.server';

const APP = 'https://quarry.example/';

describe('parseOAuthProviders', () => {
  it('offers nothing when OAUTH_PROVIDERS is unset or empty', () => {
    expect(parseOAuthProviders({}, APP)).toEqual({ providers: [], errors: [] });
    expect(parseOAuthProviders({ OAUTH_PROVIDERS: ' , ' }, APP)).toEqual({ providers: [], errors: [] });
  });

  it('applies the Google preset (OpenID Connect by discovery)', () => {
    const { providers, errors } = parseOAuthProviders(
      { OAUTH_PROVIDERS: 'google', OAUTH_GOOGLE_CLIENT_ID: 'gid', OAUTH_GOOGLE_CLIENT_SECRET: 'gsecret' },
      APP,
    );
    expect(errors).toEqual([]);
    expect(providers).toEqual([
      {
        id: 'google',
        name: 'Google',
        clientId: 'gid',
        clientSecret: 'gsecret',
        scopes: ['openid', 'email', 'profile'],
        redirectURI: 'https://quarry.example/oauth/google',
        issuer: 'https://accounts.google.com',
        authorizationUrl: undefined,
        tokenUrl: undefined,
        userinfoUrl: undefined,
        emailsUrl: undefined,
        profile: 'oidc',
      },
    ]);
  });

  it('applies the GitHub preset (plain OAuth2 with the user and e-mails API)', () => {
    const { providers } = parseOAuthProviders(
      { OAUTH_PROVIDERS: 'GitHub', OAUTH_GITHUB_CLIENT_ID: 'hid', OAUTH_GITHUB_CLIENT_SECRET: 'hs' },
      APP,
    );
    expect(providers[0]).toMatchObject({
      id: 'github',
      name: 'GitHub',
      profile: 'github',
      issuer: undefined,
      authorizationUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      userinfoUrl: 'https://api.github.com/user',
      emailsUrl: 'https://api.github.com/user/emails',
      scopes: ['read:user', 'user:email'],
      redirectURI: 'https://quarry.example/oauth/github',
    });
  });

  it('reads a generic OpenID Connect provider, adding the openid scope', () => {
    const { providers, errors } = parseOAuthProviders(
      {
        OAUTH_PROVIDERS: 'myidp',
        OAUTH_MYIDP_CLIENT_ID: 'c',
        OAUTH_MYIDP_CLIENT_SECRET: 's',
        OAUTH_MYIDP_ISSUER: 'http://127.0.0.1:4011/',
        OAUTH_MYIDP_SCOPES: 'email, profile',
        OAUTH_MYIDP_NAME: 'Test IdP',
      },
      'http://127.0.0.1:3110',
    );
    expect(errors).toEqual([]);
    expect(providers[0]).toMatchObject({
      id: 'myidp',
      name: 'Test IdP',
      issuer: 'http://127.0.0.1:4011',
      scopes: ['openid', 'email', 'profile'],
      profile: 'oidc',
      redirectURI: 'http://127.0.0.1:3110/oauth/myidp',
    });
  });

  it('reads a generic OAuth2 provider from explicit endpoints', () => {
    const { providers, errors } = parseOAuthProviders(
      {
        OAUTH_PROVIDERS: 'corp',
        OAUTH_CORP_CLIENT_ID: 'c',
        OAUTH_CORP_CLIENT_SECRET: 's',
        OAUTH_CORP_AUTHORIZATION_URL: 'https://sso.corp.example/authorize',
        OAUTH_CORP_TOKEN_URL: 'https://sso.corp.example/token',
        OAUTH_CORP_USERINFO_URL: 'https://sso.corp.example/me',
      },
      APP,
    );
    expect(errors).toEqual([]);
    expect(providers[0]).toMatchObject({ id: 'corp', name: 'corp', profile: 'userinfo', scopes: [], issuer: undefined });
  });

  it('lets explicit URLs override a preset', () => {
    const { providers } = parseOAuthProviders(
      {
        OAUTH_PROVIDERS: 'github',
        OAUTH_GITHUB_CLIENT_ID: 'c',
        OAUTH_GITHUB_CLIENT_SECRET: 's',
        OAUTH_GITHUB_AUTHORIZATION_URL: 'https://ghe.corp.example/login/oauth/authorize',
        OAUTH_GITHUB_TOKEN_URL: 'https://ghe.corp.example/login/oauth/access_token',
        OAUTH_GITHUB_USERINFO_URL: 'https://ghe.corp.example/api/v3/user',
      },
      APP,
    );
    expect(providers[0]).toMatchObject({
      authorizationUrl: 'https://ghe.corp.example/login/oauth/authorize',
      userinfoUrl: 'https://ghe.corp.example/api/v3/user',
      profile: 'github',
    });
  });

  it('does not offer a misconfigured provider, names the variables, and keeps the others', () => {
    const { providers, errors } = parseOAuthProviders(
      {
        OAUTH_PROVIDERS: 'google,broken,half,bad-id',
        OAUTH_GOOGLE_CLIENT_ID: 'g',
        OAUTH_GOOGLE_CLIENT_SECRET: 's',
        OAUTH_BROKEN_CLIENT_ID: '',
        OAUTH_BROKEN_ISSUER: 'not a url',
        OAUTH_HALF_CLIENT_ID: 'c',
        OAUTH_HALF_CLIENT_SECRET: 's',
        OAUTH_HALF_AUTHORIZATION_URL: 'https://half.example/authorize',
      },
      APP,
    );
    expect(providers.map((p) => p.id)).toEqual(['google']);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toContain('"broken"');
    expect(errors[0]).toContain('OAUTH_BROKEN_CLIENT_ID');
    expect(errors[0]).toContain('OAUTH_BROKEN_CLIENT_SECRET');
    expect(errors[0]).toContain('OAUTH_BROKEN_ISSUER must be an absolute URL');
    expect(errors[1]).toContain('OAUTH_HALF_ISSUER');
    expect(errors[1]).toContain('OAUTH_HALF_TOKEN_URL');
    expect(errors[2]).toContain('"bad-id"');
  });

  it('rejects non-http(s) endpoints', () => {
    const { providers, errors } = parseOAuthProviders(
      {
        OAUTH_PROVIDERS: 'x',
        OAUTH_X_CLIENT_ID: 'c',
        OAUTH_X_CLIENT_SECRET: 's',
        OAUTH_X_ISSUER: 'javascript:alert(1)',
      },
      APP,
    );
    expect(providers).toEqual([]);
    expect(errors[0]).toContain('OAUTH_X_ISSUER');
  });

  it('lists each id once', () => {
    const { providers } = parseOAuthProviders(
      { OAUTH_PROVIDERS: 'google google', OAUTH_GOOGLE_CLIENT_ID: 'g', OAUTH_GOOGLE_CLIENT_SECRET: 's' },
      APP,
    );
    expect(providers).toHaveLength(1);
  });
});
