import type { Server } from 'node:http';
// @ts-expect-error oidc-provider ships no type declarations; the few members used are typed below.
import ProviderModule from 'oidc-provider';

// A real OpenID Connect provider for tests (node-oidc-provider v9), with its development login
// and consent pages, so a browser signs in there exactly as at a real provider. Any login name
// is accepted: "ada.lovelace+x1@example.test" becomes sub "ada.lovelace+x1@example.test",
// e-mail that address (verified), name "Ada Lovelace". A name without "@" gets
// "<name>@idp.example.test".

export type TestOidcClient = { clientId: string; clientSecret: string; redirectUris: string[] };

export type TestOidcProvider = {
  /** The issuer, e.g. http://127.0.0.1:4011 (its discovery document is under /.well-known). */
  issuer: string;
  port: number;
  close(): Promise<void>;
};

type ClaimsFn = () => Promise<Record<string, unknown>> | Record<string, unknown>;
type ProviderInstance = {
  listen(port: number, host: string, callback: () => void): Server;
  proxy: boolean;
};
type ProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;
const Provider = ProviderModule as ProviderConstructor;

export function claimsForLogin(login: string): { sub: string; email: string; email_verified: true; name: string } {
  const sub = login.trim();
  const email = sub.includes('@') ? sub.toLowerCase() : `${sub.toLowerCase().replace(/[^a-z0-9._-]+/g, '.')}@idp.example.test`;
  const local = (sub.split('@')[0] ?? sub).split('+')[0] ?? sub;
  const name =
    local
      .split(/[._\-\s]+/u)
      .filter(Boolean)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ') || 'Test User';
  return { sub, email, email_verified: true, name };
}

export async function startOidcProvider(options: { port: number; host?: string; clients: TestOidcClient[] }): Promise<TestOidcProvider> {
  const host = options.host ?? '127.0.0.1';
  const issuer = `http://${host}:${options.port}`;
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    async findAccount(_ctx: unknown, id: string) {
      const claims: ClaimsFn = () => claimsForLogin(id);
      return { accountId: id, claims };
    },
    cookies: { keys: ['quarry-e2e-oidc-cookie-key-not-secret'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: { Session: 60 * 60, Interaction: 60 * 60, Grant: 60 * 60, AccessToken: 60 * 60, AuthorizationCode: 60, IdToken: 60 * 60 },
    // The dev interactions print a warning per start; keep test logs about the tests.
    renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><title>oidc error</title></head><body><pre>${Object.entries(out)
        .map(([k, v]) => `${k}: ${String(v).replace(/[<>&]/g, '')}`)
        .join('\n')}</pre></body></html>`;
    },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = provider.listen(options.port, host, () => resolve(s));
    s.once('error', reject);
  });
  return {
    issuer,
    port: options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
