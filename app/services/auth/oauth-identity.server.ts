import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import { getJson, ProviderHttpError } from './oauth-http.server';
import type { OAuthProviderConfig } from './oauth-providers.server';

// Who the provider says the user is, after the code exchange. OpenID Connect: a verified id_token
// (signature by the issuer's keys, iss, aud, exp, and our nonce), topped up from userinfo.
// Plain OAuth2: the provider's user API (GitHub's, or a generic userinfo endpoint).

export type OAuthIdentity = {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
};

/** A failure the user is told about, in words: it becomes the error modal's detail. */
export class OAuthSignInError extends Error {
  override name = 'OAuthSignInError';
  constructor(
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
  }
}

export type OidcDiscovery = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  jwks_uri: string;
  code_challenge_methods_supported?: string[];
};

const DiscoverySchema = z.object({
  issuer: z.string().url(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  userinfo_endpoint: z.string().url().optional(),
  jwks_uri: z.string().url(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});

const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const discoveries = new Map<string, { at: number; value: Promise<OidcDiscovery> }>();
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** `<issuer>/.well-known/openid-configuration`, cached for an hour; failures are not cached. */
export function discover(issuer: string): Promise<OidcDiscovery> {
  const hit = discoveries.get(issuer);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.value;
  const value = (async () => {
    const body = await getJson(`${trimSlash(issuer)}/.well-known/openid-configuration`);
    const parsed = DiscoverySchema.safeParse(body);
    if (!parsed.success) throw new Error(`The OpenID configuration of ${issuer} is incomplete: ${parsed.error.message}`);
    // OpenID Connect Discovery §4.3: the document's issuer must be the one we asked.
    if (trimSlash(parsed.data.issuer) !== trimSlash(issuer)) {
      throw new Error(`The OpenID configuration of ${issuer} names another issuer: ${parsed.data.issuer}`);
    }
    return parsed.data;
  })();
  discoveries.set(issuer, { at: Date.now(), value });
  value.catch(() => discoveries.delete(issuer));
  return value;
}

function keySet(jwksUri: string) {
  let set = keySets.get(jwksUri);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
    keySets.set(jwksUri, set);
  }
  return set;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const truthy = (v: unknown): boolean => v === true || v === 'true';

function claimsOf(source: Record<string, unknown>): Omit<OAuthIdentity, 'subject'> {
  return {
    email: text(source.email),
    emailVerified: truthy(source.email_verified),
    name: text(source.name) ?? text(source.preferred_username),
    picture: text(source.picture),
  };
}

function tokenProblem(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) return 'it has expired';
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `its "${e.claim}" claim is wrong`;
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return 'its signature is wrong';
  if (e instanceof joseErrors.JWKSNoMatchingKey) return 'it is signed with an unknown key';
  if (e instanceof joseErrors.JWKSTimeout) return 'the signing keys could not be fetched in time';
  if (e instanceof joseErrors.JOSEError) return e.message;
  return 'it is malformed';
}

export async function oidcIdentity(input: {
  provider: OAuthProviderConfig;
  discovery: OidcDiscovery;
  idToken: string | null;
  accessToken: string;
  expectedNonce: string | undefined;
}): Promise<OAuthIdentity> {
  const { provider, discovery } = input;
  if (!input.idToken) throw new OAuthSignInError(`${provider.name} did not send an identity token (id_token).`);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(input.idToken, keySet(discovery.jwks_uri), {
      issuer: discovery.issuer,
      audience: provider.clientId,
      clockTolerance: 60,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (e) {
    throw new OAuthSignInError(`The identity token from ${provider.name} could not be verified: ${tokenProblem(e)}.`, { cause: e });
  }
  // OpenID Connect Core §3.1.3.7: with several audiences, the authorized party must be us.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== provider.clientId) {
    throw new OAuthSignInError(`The identity token from ${provider.name} was issued to another application.`);
  }
  if (!input.expectedNonce || payload.nonce !== input.expectedNonce) {
    throw new OAuthSignInError(
      `The identity token from ${provider.name} does not belong to this sign-in (nonce mismatch). Please try again.`,
    );
  }
  const subject = text(payload.sub);
  if (!subject) throw new OAuthSignInError(`${provider.name} did not identify the account (no subject).`);
  const identity: OAuthIdentity = { subject, ...claimsOf(payload) };

  // With the code flow many providers keep profile claims out of the id_token: ask userinfo.
  const userinfoUrl = provider.userinfoUrl ?? discovery.userinfo_endpoint;
  if ((!identity.email || !identity.name || !identity.picture) && userinfoUrl) {
    const info = await providerJson(provider, userinfoUrl, { Authorization: `Bearer ${input.accessToken}` });
    // OpenID Connect Core §5.3.2: userinfo's sub must equal the id_token's.
    if (text(info.sub) !== subject) {
      throw new OAuthSignInError(`${provider.name} answered with another account's profile.`);
    }
    const extra = claimsOf(info);
    if (!identity.email && extra.email) {
      identity.email = extra.email;
      identity.emailVerified = extra.emailVerified;
    }
    identity.name ??= extra.name;
    identity.picture ??= extra.picture;
  }
  return identity;
}

async function providerJson(provider: OAuthProviderConfig, url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await getJson(url, headers);
  } catch (e) {
    const status = e instanceof ProviderHttpError && e.status ? ` (HTTP ${e.status})` : '';
    throw new OAuthSignInError(`${provider.name} did not share your profile${status}. Please try again later.`, { cause: e });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthSignInError(`${provider.name} answered with an unreadable profile.`);
  }
  return body as Record<string, unknown>;
}

const GitHubEmailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean().optional(), verified: z.boolean().optional() }));

/** GitHub (not OpenID Connect): /user for the id, name and avatar; /user/emails for a verified address. */
export async function githubIdentity(provider: OAuthProviderConfig, accessToken: string): Promise<OAuthIdentity> {
  const headers = { Authorization: `Bearer ${accessToken}`, Accept: 'application/vnd.github+json' };
  const user = await providerJson(provider, provider.userinfoUrl!, headers);
  const id = typeof user.id === 'number' || typeof user.id === 'string' ? String(user.id) : null;
  if (!id) throw new OAuthSignInError(`${provider.name} did not identify the account.`);
  let email = text(user.email);
  let emailVerified = false;
  if (provider.emailsUrl) {
    let list: unknown;
    try {
      list = await getJson(provider.emailsUrl, headers);
    } catch {
      list = [];
    }
    const parsed = GitHubEmailsSchema.safeParse(list);
    const emails = parsed.success ? parsed.data : [];
    const best = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
    if (best) {
      email = best.email;
      emailVerified = true;
    }
  }
  return { subject: id, email, emailVerified, name: text(user.name) ?? text(user.login), picture: text(user.avatar_url) };
}

/** A plain OAuth2 provider with a JSON userinfo endpoint (sub or id, email, name, picture). */
export async function userinfoIdentity(provider: OAuthProviderConfig, accessToken: string): Promise<OAuthIdentity> {
  const info = await providerJson(provider, provider.userinfoUrl!, { Authorization: `Bearer ${accessToken}` });
  const rawId = info.sub ?? info.id ?? info.user_id;
  const subject = typeof rawId === 'number' ? String(rawId) : text(rawId);
  if (!subject) throw new OAuthSignInError(`${provider.name} did not identify the account.`);
  const claims = claimsOf(info);
  return {
    subject,
    ...claims,
    name: claims.name ?? text(info.login) ?? text(info.username),
    picture: claims.picture ?? text(info.avatar_url),
  };
}
