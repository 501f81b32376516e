import { z } from 'zod';
import { config } from '../config.server';

// Social sign-in providers, configured by env:
//   OAUTH_PROVIDERS=google,github,myidp
//   OAUTH_<ID>_CLIENT_ID, OAUTH_<ID>_CLIENT_SECRET            (required)
//   OAUTH_<ID>_ISSUER                                          (OpenID Connect, discovered)
//   OAUTH_<ID>_AUTHORIZATION_URL, _TOKEN_URL, _USERINFO_URL    (plain OAuth2, or overrides)
//   OAUTH_<ID>_SCOPES, OAUTH_<ID>_NAME                         (optional)
// "google" and "github" come with presets. A provider whose settings are invalid is logged once
// and not offered; the others keep working.

export type OAuthProfileKind = 'oidc' | 'github' | 'userinfo';

export type OAuthProviderConfig = {
  /** Lowercase id used in URLs (/oauth/<id>) and as the account key's provider part. */
  id: string;
  /** Label on the button: "Continue with <name>". */
  name: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  redirectURI: string;
  /** OpenID Connect issuer: endpoints come from its discovery document, users from the id_token. */
  issuer?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  /** GitHub only: where the verified e-mail addresses are listed. */
  emailsUrl?: string;
  /** How the user's identity is read after the code exchange. */
  profile: OAuthProfileKind;
};

export type ParsedOAuthProviders = { providers: OAuthProviderConfig[]; errors: string[] };

type Preset = Partial<Omit<OAuthProviderConfig, 'id' | 'clientId' | 'clientSecret' | 'redirectURI'>>;

export const OAUTH_PRESETS: Record<string, Preset> = {
  google: {
    name: 'Google',
    issuer: 'https://accounts.google.com',
    scopes: ['openid', 'email', 'profile'],
    profile: 'oidc',
  },
  // GitHub is OAuth2 without OpenID Connect: the identity comes from its REST API.
  github: {
    name: 'GitHub',
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
    emailsUrl: 'https://api.github.com/user/emails',
    scopes: ['read:user', 'user:email'],
    profile: 'github',
  },
};

export const OAUTH_PROVIDER_ID_PATTERN = /^[a-z][a-z0-9]{0,31}$/;
const OIDC_DEFAULT_SCOPES = ['openid', 'email', 'profile'];

const emptyAsUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const httpUrl = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .trim()
    .url('must be an absolute URL')
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
    .optional(),
);
const optionalText = z.preprocess(emptyAsUndefined, z.string().trim().optional());

const ProviderEnvSchema = z.object({
  CLIENT_ID: z.preprocess(emptyAsUndefined, z.string({ required_error: 'is required' }).trim().min(1)),
  CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string({ required_error: 'is required' }).min(1)),
  ISSUER: httpUrl,
  AUTHORIZATION_URL: httpUrl,
  TOKEN_URL: httpUrl,
  USERINFO_URL: httpUrl,
  SCOPES: optionalText,
  NAME: z.preprocess(emptyAsUndefined, z.string().trim().max(60, 'must be at most 60 characters').optional()),
});

function splitScopes(value: string): string[] {
  return value.split(/[\s,]+/u).filter(Boolean);
}

/** Parses the providers from an environment. Pure: the caller logs `errors`. */
export function parseOAuthProviders(env: Record<string, string | undefined>, appUrl: string): ParsedOAuthProviders {
  const providers: OAuthProviderConfig[] = [];
  const errors: string[] = [];
  const ids = splitScopes((env.OAUTH_PROVIDERS ?? '').toLowerCase());
  const base = appUrl.replace(/\/+$/, '');

  for (const id of new Set(ids)) {
    if (!OAUTH_PROVIDER_ID_PATTERN.test(id)) {
      errors.push(`OAuth provider "${id}" in OAUTH_PROVIDERS is not offered: ids are a letter followed by up to 31 letters or digits.`);
      continue;
    }
    const prefix = `OAUTH_${id.toUpperCase()}_`;
    const raw = Object.fromEntries(Object.keys(ProviderEnvSchema.shape).map((key) => [key, env[prefix + key]]));
    const parsed = ProviderEnvSchema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${prefix}${issue.path.join('.')} ${issue.message}`);
      errors.push(`OAuth provider "${id}" is not offered: ${problems.join('; ')}.`);
      continue;
    }
    const e = parsed.data;
    const preset = OAUTH_PRESETS[id] ?? {};
    // An explicit issuer turns any provider into OpenID Connect; explicit URLs override presets.
    const issuer = e.ISSUER ?? (e.AUTHORIZATION_URL || e.TOKEN_URL ? undefined : preset.issuer);
    const authorizationUrl = e.AUTHORIZATION_URL ?? (issuer ? undefined : preset.authorizationUrl);
    const tokenUrl = e.TOKEN_URL ?? (issuer ? undefined : preset.tokenUrl);
    const userinfoUrl = e.USERINFO_URL ?? (issuer ? undefined : preset.userinfoUrl);
    if (!issuer && (!authorizationUrl || !tokenUrl || !userinfoUrl)) {
      errors.push(
        `OAuth provider "${id}" is not offered: set ${prefix}ISSUER (OpenID Connect), or all of ` +
          `${prefix}AUTHORIZATION_URL, ${prefix}TOKEN_URL and ${prefix}USERINFO_URL (plain OAuth2).`,
      );
      continue;
    }
    const profile: OAuthProfileKind = issuer ? 'oidc' : (preset.profile ?? 'userinfo');
    let scopes = e.SCOPES ? splitScopes(e.SCOPES) : issuer ? (preset.scopes ?? OIDC_DEFAULT_SCOPES) : (preset.scopes ?? []);
    // Without the openid scope an OpenID provider returns no id_token to verify.
    if (issuer && !scopes.includes('openid')) scopes = ['openid', ...scopes];
    providers.push({
      id,
      name: e.NAME ?? preset.name ?? id,
      clientId: e.CLIENT_ID,
      clientSecret: e.CLIENT_SECRET,
      scopes,
      redirectURI: `${base}/oauth/${id}`,
      issuer: issuer?.replace(/\/+$/, ''),
      authorizationUrl,
      tokenUrl,
      userinfoUrl,
      emailsUrl: profile === 'github' ? preset.emailsUrl : undefined,
      profile,
    });
  }
  return { providers, errors };
}

let cached: OAuthProviderConfig[] | undefined;

/** The valid providers of this instance; problems are logged once, at first use. */
export function oauthProviders(): OAuthProviderConfig[] {
  if (!cached) {
    const { providers, errors } = parseOAuthProviders(process.env, config().appUrl);
    for (const message of errors) console.error(`[oauth] ${message}`);
    cached = providers;
  }
  return cached;
}

export function findOAuthProvider(id: string | undefined): OAuthProviderConfig | undefined {
  if (!id) return undefined;
  return oauthProviders().find((p) => p.id === id);
}

/** What the /oauth page offers. */
export function listProviders(): { id: string; name: string }[] {
  return oauthProviders().map(({ id, name }) => ({ id, name }));
}
