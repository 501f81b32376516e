// Where the end-to-end servers listen. One place, read by playwright.config.ts (which hands the
// values to both web servers through their environment) and by the fixtures.

const num = (v: string | undefined, fallback: number) => (v && /^\d+$/.test(v) ? Number(v) : fallback);

export const E2E_APP_PORT = num(process.env.E2E_APP_PORT, 3110);
export const E2E_OIDC_PORT = num(process.env.E2E_OIDC_PORT, 4011);
export const E2E_CONTROL_PORT = num(process.env.E2E_CONTROL_PORT, 4012);

export const E2E_APP_URL = `http://127.0.0.1:${E2E_APP_PORT}`;
export const E2E_OIDC_ISSUER = `http://127.0.0.1:${E2E_OIDC_PORT}`;
export const E2E_CONTROL_URL = `http://127.0.0.1:${E2E_CONTROL_PORT}`;

/** The provider id Quarry knows the test OpenID provider by: /oauth/testidp. */
export const E2E_OIDC_PROVIDER_ID = 'testidp';
export const E2E_OIDC_CLIENT_ID = 'quarry-e2e';
// Not a secret: the test provider only runs on 127.0.0.1 during the tests.
export const E2E_OIDC_CLIENT_SECRET = 'quarry-e2e-client-secret-not-a-secret';

/**
 * Written by scripts/e2e-start.mjs: the running app's DATA_DIR and database settings. Keyed by
 * the app's port so two runs on other ports (E2E_APP_PORT…) do not read each other's.
 */
export const E2E_APP_STATE_FILE = `tests/.tmp/e2e-app-${E2E_APP_PORT}.json`;

/**
 * Ports of the extra app processes: two for tests/e2e/many-users.spec.ts and one for
 * tests/e2e/shutdown.spec.ts ("p1,p2,p3"; a third left out is E2E_APP_PORT + 3). By default the
 * three ports after E2E_APP_PORT, so runs side by side on other E2E_APP_PORTs stay apart.
 */
export const E2E_EXTRA_APP_PORTS: [number, number, number] = (() => {
  const given = (process.env.E2E_EXTRA_APP_PORTS ?? '').split(',').map((p) => p.trim());
  if ((given.length === 2 || given.length === 3) && given.every((p) => /^\d+$/.test(p))) {
    return [Number(given[0]), Number(given[1]), given.length === 3 ? Number(given[2]) : E2E_APP_PORT + 3];
  }
  return [E2E_APP_PORT + 1, E2E_APP_PORT + 2, E2E_APP_PORT + 3];
})();
