import { expect, test } from './support/fixtures';

// Security basics (headers, cookies), as a browser receives them from the production server.
// Headers, cookies and refused requests are the server's: they run in the js project only. What
// the sign-in page does with redirectTo is a page, so it runs with JavaScript on and off.

test.describe('the server', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs in the js project only: it tests the server, once is enough');

  test('documents carry a nonce-based CSP and the protective headers', async ({ page }) => {
    const response = await page.goto('/login');
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    const csp = headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // The e2e server runs with NODE_ENV=production.
    expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // Every inline script of the page carries this response's nonce (so the CSP lets it run).
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const html = await response!.text();
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const attrs of inlineScripts) expect(attrs).toContain(`nonce="${nonce}"`);
    // A fresh nonce per response.
    const again = await page.request.get('/login');
    expect(again.headers()['content-security-policy']).not.toContain(nonce);
  });

  test('the session cookie is HttpOnly, SameSite=Lax, Secure in production, and lasts 90 days', async ({ page, context }) => {
    await page.goto('/data-browser');
    const session = (await context.cookies()).find((c) => c.name === '__session');
    expect(session).toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe('Lax');
    expect(session!.secure).toBe(true);
    expect(session!.path).toBe('/');
    const days = (session!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThanOrEqual(90);
    // The password never goes into it: it holds a token, not credentials.
    expect(decodeURIComponent(session!.value)).not.toMatch(/password/i);
  });

  test('JSON answers are never sniffed and errors keep the {"detail"} shape', async ({ request }) => {
    const response = await request.post('/api/v1/auth/signin', { data: '{not json', headers: { 'Content-Type': 'application/json' } });
    expect([400, 422]).toContain(response.status());
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    expect(await response.json()).toHaveProperty('detail');
  });

  test('a form posted from another site is refused and changes nothing', async ({ page, createUser, signIn }) => {
    const user = await createUser({ access: true });
    await signIn(page, user.email, user.password);
    // The victim's browser sends their cookie along with a form posted by another site.
    const response = await page.request.post('/profile', {
      form: { intent: 'delete-account', confirmed: 'true', cancelled: 'false' },
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      maxRedirects: 0,
    });
    // The server refuses it before any action runs.
    expect(response.status()).toBe(403);
    await page.goto('/profile');
    await expect(page.getByTestId('profile-name')).toHaveText(user.name);
  });
});

test('redirectTo never leaves the site', async ({ page }) => {
  await page.goto('/login?redirectTo=https://evil.example/steal');
  await expect(page.locator('input[name="redirectTo"]')).toHaveCount(0);
  await page.goto('/login?redirectTo=//evil.example');
  await expect(page.locator('input[name="redirectTo"]')).toHaveCount(0);
  await page.goto('/login?redirectTo=/screener');
  await expect(page.locator('input[name="redirectTo"]')).toHaveValue('/screener');
});
