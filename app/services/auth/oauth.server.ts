import { randomBytes } from 'node:crypto';
import { Authenticator } from 'remix-auth';
import { CodeChallengeMethod, OAuth2RequestError, OAuth2Strategy } from 'remix-auth-oauth2';
import { config } from '../config.server';
import { isDomainError } from '../http/errors';
import { pageNotFound } from '../http/page-errors';
import { FLOW_TTL_SECONDS, findFlowEntry, oauthPath, saveFlowEntry, stateCookieName, type FlowEntry } from './oauth-flow.server';
import {
  discover,
  githubIdentity,
  OAuthSignInError,
  oidcIdentity,
  userinfoIdentity,
  type OAuthIdentity,
  type OidcDiscovery,
} from './oauth-identity.server';
import { findOAuthProvider, listProviders, type OAuthProviderConfig } from './oauth-providers.server';
import { safeRedirectPath } from './redirects';
import type { AccountUser } from './types';
import { findOrCreateOAuthUser } from './users.server';

// Social sign-in with remix-auth v4 + remix-auth-oauth2 v3: the strategy only proves who the user
// is at the provider; the route owns the session. One Authenticator per configured provider.
// remix-auth-oauth2 handles state and PKCE (S256) in its own cookie; we add the OIDC nonce and
// the return path in a signed cookie (oauth-flow.server.ts).

export { listProviders, OAuthSignInError };
export { clearFlowCookies, flowRedirectTo } from './oauth-flow.server';

class QuarryOAuthStrategy extends OAuth2Strategy<OAuthIdentity> {
  override name: string;
  /** Flow facts decided while building the authorization URL, for the redirect's Set-Cookie. */
  private readonly starting = new WeakMap<Request, FlowEntry>();

  constructor(
    private readonly provider: OAuthProviderConfig,
    endpoints: { authorizationEndpoint: string; tokenEndpoint: string },
    private readonly discovery: OidcDiscovery | null,
  ) {
    super(
      {
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        authorizationEndpoint: endpoints.authorizationEndpoint,
        tokenEndpoint: endpoints.tokenEndpoint,
        redirectURI: provider.redirectURI,
        scopes: provider.scopes,
        codeChallengeMethod: CodeChallengeMethod.S256,
        cookie: {
          name: stateCookieName(provider.id),
          path: oauthPath(provider.id),
          httpOnly: true,
          sameSite: 'Lax',
          ...(config().isProduction ? { secure: true as const } : {}),
          maxAge: FLOW_TTL_SECONDS,
        },
      },
      (params) => this.identify(params),
    );
    this.name = provider.id;
  }

  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const out = new URLSearchParams(params);
    const entry: FlowEntry = { s: out.get('state') ?? '', t: Date.now() };
    if (this.discovery) {
      entry.n = randomBytes(24).toString('base64url');
      out.set('nonce', entry.n);
    }
    const back = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'), '');
    if (back) entry.r = back;
    this.starting.set(request, entry);
    return out;
  }

  override async authenticate(request: Request): Promise<OAuthIdentity> {
    const url = new URL(request.url);
    // The library starts a new flow whenever `state` is absent; a callback without it is an error.
    if (!url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'))) {
      throw new OAuthSignInError(`The answer from ${this.provider.name} carries no state. Please start again.`);
    }
    // RFC 9207: a provider that names itself in the callback must be the one we asked.
    const iss = url.searchParams.get('iss');
    if (this.discovery && iss !== null && iss !== this.discovery.issuer) {
      throw new OAuthSignInError(`The answer did not come from ${this.provider.name} (issuer ${iss.slice(0, 100)}).`);
    }
    try {
      return await super.authenticate(request);
    } catch (e) {
      const entry = e instanceof Response ? this.starting.get(request) : undefined;
      if (e instanceof Response && entry) e.headers.append('Set-Cookie', await saveFlowEntry(request, this.provider.id, entry));
      throw e;
    }
  }

  private async identify({ request, tokens }: OAuth2Strategy.VerifyOptions): Promise<OAuthIdentity> {
    const accessToken = tokens.accessToken();
    if (this.discovery) {
      const state = new URL(request.url).searchParams.get('state');
      const flow = await findFlowEntry(request, this.provider.id, state);
      const idToken = 'id_token' in tokens.data && typeof tokens.data.id_token === 'string' ? tokens.data.id_token : null;
      return oidcIdentity({ provider: this.provider, discovery: this.discovery, idToken, accessToken, expectedNonce: flow?.n });
    }
    if (this.provider.profile === 'github') return githubIdentity(this.provider, accessToken);
    return userinfoIdentity(this.provider, accessToken);
  }
}

const authenticators = new Map<string, Promise<Authenticator<OAuthIdentity>>>();

function authenticatorFor(provider: OAuthProviderConfig): Promise<Authenticator<OAuthIdentity>> {
  let pending = authenticators.get(provider.id);
  if (!pending) {
    pending = (async () => {
      let discovery: OidcDiscovery | null = null;
      if (provider.issuer) {
        try {
          discovery = await discover(provider.issuer);
        } catch (e) {
          console.error(`[oauth] ${provider.id}: OpenID discovery failed`, e);
          throw new OAuthSignInError(`${provider.name} could not be reached. Please try again later.`, { cause: e });
        }
      }
      const strategy = new QuarryOAuthStrategy(
        provider,
        {
          authorizationEndpoint: provider.authorizationUrl ?? discovery!.authorization_endpoint,
          tokenEndpoint: provider.tokenUrl ?? discovery!.token_endpoint,
        },
        discovery,
      );
      return new Authenticator<OAuthIdentity>().use(strategy, provider.id);
    })();
    authenticators.set(provider.id, pending);
    // A provider that was down must be retried on the next sign-in, not remembered as broken.
    pending.catch(() => authenticators.delete(provider.id));
    // Discovery is cached for an hour; rebuild the strategy with it after that.
    setTimeout(() => authenticators.delete(provider.id), 60 * 60 * 1000).unref();
  }
  return pending;
}

/** Turns whatever went wrong into words for the user; the cause goes to the log. */
function describeFailure(e: unknown, provider: OAuthProviderConfig): OAuthSignInError {
  if (e instanceof OAuthSignInError) return e;
  const name = provider.name;
  if (e instanceof OAuth2RequestError) {
    // Sent back by the provider (callback `error`) or by its token endpoint.
    if (e.code === 'access_denied') return new OAuthSignInError(`Sign-in was cancelled or refused at ${name}.`, { cause: e });
    const description = e.description ? `: ${e.description}` : '';
    return new OAuthSignInError(`${name} refused the sign-in (${e.code}${description}). Please try again.`, { cause: e });
  }
  const message = e instanceof Error ? e.message : String(e);
  if (message === 'Missing state on cookie.' || message === 'Missing code verifier on cookie.') {
    return new OAuthSignInError(
      'This sign-in was not started here or took longer than 10 minutes (its cookie is missing). Please start again.',
      { cause: e },
    );
  }
  if (message === "State in URL doesn't match state in cookie.") {
    return new OAuthSignInError(`The answer from ${name} does not match the sign-in started here (invalid state). Please start again.`, {
      cause: e,
    });
  }
  if (message === 'Missing code in the URL') {
    return new OAuthSignInError(`${name} did not send an authorization code. Please start again.`, { cause: e });
  }
  if (isDomainError(e)) return new OAuthSignInError(e.detail, { cause: e });
  // Token endpoint unreachable or answering nonsense (arctic's fetch / response errors).
  return new OAuthSignInError(`${name} could not complete the sign-in. Please try again later.`, { cause: e });
}

/**
 * Runs the flow for one provider: the Response is the redirect to the provider (the start);
 * the user is the signed-in account (the callback). Failures throw OAuthSignInError with a
 * sentence for the user; an unknown provider throws a 404 Response.
 */
export async function authenticateOAuth(request: Request, providerId: string): Promise<AccountUser | Response> {
  const provider = findOAuthProvider(providerId);
  if (!provider) pageNotFound('Unknown sign-in provider');
  let identity: OAuthIdentity;
  try {
    const authenticator = await authenticatorFor(provider);
    identity = await authenticator.authenticate(provider.id, request);
  } catch (e) {
    if (e instanceof Response) return e;
    const failure = describeFailure(e, provider);
    const cause = e === failure ? '' : ` (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)})`;
    console.warn(`[oauth] ${provider.id}: ${failure.detail}${cause}`);
    throw failure;
  }
  try {
    return await findOrCreateOAuthUser({ provider: provider.id, ...identity });
  } catch (e) {
    if (isDomainError(e)) throw new OAuthSignInError(e.detail, { cause: e });
    throw e;
  }
}

export function isOAuthProvider(providerId: string | undefined): boolean {
  return findOAuthProvider(providerId) !== undefined;
}
