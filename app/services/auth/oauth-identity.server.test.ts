import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthSignInError, oidcIdentity, type OidcDiscovery } from './oauth-identity.server';
import type { OAuthProviderConfig } from './oauth-providers.server';

// The id_token checks against a real HTTP server publishing a real key set (no mocks): signature,
// iss, aud, exp, nonce, and the userinfo top-up with its sub check.

let server: Server;
let base: string;
let privateKey: CryptoKey;
let otherKey: CryptoKey;
let userinfo: Record<string, unknown> = {};

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey as CryptoKey;
  otherKey = (await generateKeyPair('RS256')).privateKey as CryptoKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [jwk] }));
    if (req.url === '/userinfo') return res.end(JSON.stringify(userinfo));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const provider = (): OAuthProviderConfig => ({
  id: 'testidp',
  name: 'Test IdP',
  clientId: 'quarry',
  clientSecret: 's',
  scopes: ['openid', 'email', 'profile'],
  redirectURI: 'http://localhost:3000/oauth/testidp',
  issuer: base,
  profile: 'oidc',
});

const discovery = (): OidcDiscovery => ({
  issuer: base,
  authorization_endpoint: `${base}/auth`,
  token_endpoint: `${base}/token`,
  userinfo_endpoint: `${base}/userinfo`,
  jwks_uri: `${base}/jwks`,
});

async function idToken(claims: JWTPayload, options: { key?: CryptoKey; exp?: number | string } = {}) {
  return new SignJWT({ nonce: 'n-1', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(typeof claims.iss === 'string' ? claims.iss : base)
    .setAudience(claims.aud ?? 'quarry')
    .setSubject(claims.sub ?? 'user-1')
    .setIssuedAt()
    .setExpirationTime(options.exp ?? '5m')
    .sign(options.key ?? privateKey);
}

const run = async (token: string, expectedNonce: string | null = 'n-1') =>
  oidcIdentity({
    provider: provider(),
    discovery: discovery(),
    idToken: token,
    accessToken: 'at',
    expectedNonce: expectedNonce ?? undefined,
  });

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(OAuthSignInError);
    return (e as OAuthSignInError).detail;
  }
  throw new Error('expected the sign-in to fail');
}

describe('oidcIdentity', () => {
  it('reads the claims of a valid id_token', async () => {
    const token = await idToken({ email: 'ada@example.test', email_verified: true, name: 'Ada Lovelace', picture: 'https://x/p.png' });
    await expect(run(token)).resolves.toEqual({
      subject: 'user-1',
      email: 'ada@example.test',
      emailVerified: true,
      name: 'Ada Lovelace',
      picture: 'https://x/p.png',
    });
  });

  it('tops up missing claims from userinfo', async () => {
    userinfo = { sub: 'user-1', email: 'grace@example.test', email_verified: true, name: 'Grace Hopper' };
    await expect(run(await idToken({}))).resolves.toMatchObject({ email: 'grace@example.test', emailVerified: true, name: 'Grace Hopper' });
  });

  it('refuses userinfo about another subject', async () => {
    userinfo = { sub: 'someone-else', email: 'x@example.test' };
    expect(await failure(run(await idToken({})))).toContain("another account's profile");
  });

  it('refuses a wrong nonce, or none kept for this state', async () => {
    const token = await idToken({ email: 'a@example.test', name: 'A', picture: 'p' });
    expect(await failure(run(token, 'other'))).toContain('nonce mismatch');
    expect(await failure(run(token, null))).toContain('nonce mismatch');
  });

  it('refuses another audience, another issuer, an expired token and a foreign signature', async () => {
    expect(await failure(run(await idToken({ aud: 'someone-else' })))).toContain('"aud" claim');
    expect(await failure(run(await idToken({ iss: 'https://evil.example' })))).toContain('"iss" claim');
    expect(await failure(run(await idToken({}, { exp: Math.floor(Date.now() / 1000) - 3600 })))).toContain('expired');
    expect(await failure(run(await idToken({}, { key: otherKey })))).toContain('signature');
  });

  it('refuses several audiences unless we are the authorized party', async () => {
    expect(await failure(run(await idToken({ aud: ['quarry', 'other'] })))).toContain('another application');
    userinfo = { sub: 'user-1' };
    await expect(run(await idToken({ aud: ['quarry', 'other'], azp: 'quarry' }))).resolves.toMatchObject({ subject: 'user-1' });
  });

  it('refuses a missing or malformed id_token', async () => {
    expect(
      await failure(oidcIdentity({ provider: provider(), discovery: discovery(), idToken: null, accessToken: 'at', expectedNonce: 'n-1' })),
    ).toContain('did not send an identity token');
    expect(await failure(run('not.a.jwt'))).toContain('could not be verified');
  });
});
