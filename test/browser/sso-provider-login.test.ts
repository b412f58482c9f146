import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { describeIfBrowser, freePort, launchChromium, STARTUP_TIMEOUT_MS } from '../support/browser';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { request } from '../support/contract-request';
import { AUTH, signupOwner } from '../support/http-fixtures';
import { OidcTestProvider } from '../support/oidc-test-provider';
import { connectTenant } from '../support/sso-fixtures';

/**
 * Single sign-on in a real browser: Chromium starts at the service, signs in on the test provider's
 * own login page (another port of 127.0.0.1), comes back through the callback to the console's
 * address with a one-time code, and trades it as the console does, by POST from the page.
 */
describeIfBrowser('single sign-on through the provider\'s own login page (Chromium)', () => {
  let service: DatabaseApp;
  let server: Server;
  let origin: string;
  let provider: OidcTestProvider;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    provider = await OidcTestProvider.start(); // before the database: loading it holds the event loop
    [service, browser] = await Promise.all([databaseApp('pglite', { publicUrl: origin }), launchChromium()]);
    server = createServer(service.app);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await Promise.all([service?.close(), provider?.close(), browser?.close()]);
  });

  it('V6.8.1 start, the provider\'s login page, the callback, the code exchanged by the page: a session of the tenant', async () => {
    const owner = await signupOwner(service.app);
    const { domains: [domain] } = await connectTenant(service, provider, owner, { redirectUri: `${origin}${AUTH}/sso/callback` });
    const ada = provider.addAccount({ sub: 'ada-browser', email: `ada@${domain}`, email_verified: true });

    const context = await browser.newContext();
    const page = await context.newPage();
    // The console's own page would trade the code as its script loads (test/browser/single-sign-on.test.ts
    // drives it); its scripts are held back here, so the exchange below is the only one. (Routing
    // the callback's page itself is no use: the browser reaches it by redirect, which routes skip.)
    await page.route((url) => url.pathname.startsWith('/console/assets/'), (route) => route.abort());
    await page.goto(`${origin}${AUTH}/sso/start?email=${encodeURIComponent(ada.email!)}`);
    await page.getByRole('heading', { name: 'Sign in to the test provider' }).waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.getByLabel('Username').fill(ada.sub);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.href.startsWith(`${origin}/console/sso-callback?code=`));
    const code = new URL(page.url()).searchParams.get('code');
    expect(code).toMatch(/^[0-9a-f]{64}$/);
    const answer = await page.evaluate(async (sent) => {
      const res = await fetch('/api/v1/auth/sso/exchange', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: sent }) });
      return { status: res.status, body: await res.json() as { token?: string } };
    }, code);
    expect(answer).toEqual({ status: 200, body: { token: expect.any(String), expires_in: '24h' } });
    const me = await request(service.app).get(`${AUTH}/account`).set('Authorization', `Bearer ${answer.body.token}`);
    expect(me.body).toMatchObject({ tenant_id: owner.tenantId, email: ada.email, email_verified: true });
    await context.close();
  });
});
