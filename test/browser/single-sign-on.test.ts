import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import { request } from '../support/contract-request';
import { type Account, AUTH, bearer, PASSWORD, signupOwner } from '../support/http-fixtures';
import { OidcTestProvider, type TestClient } from '../support/oidc-test-provider';
import { describeIfBrowser, logIn, seriousAccessibilityViolations, startService, useConsole } from '../support/browser';

/** What a test needs of an owner: the address they sign in with and a token for the API. */
type Owner = Pick<Account, 'email' | 'token'>;

/**
 * Single sign-on in the console, against the real service and a real OpenID provider (oidc-provider,
 * test/support/oidc-test-provider.ts), each on its own port of 127.0.0.1: an owner connects the
 * provider and verifies a domain through the API (its TXT record published in the service's DNS
 * stand-in), then a person of that domain signs in from Log in's "Sign in with SSO" through the
 * provider's own login page in Chromium.
 */
describeIfBrowser('console: single sign-on through a real OpenID provider (Chromium)', () => {
  const dns = new InMemoryDnsTxtRecords();
  const session = useConsole(() => startService([], { dns }));
  const { open } = session;
  let provider: OidcTestProvider;
  beforeAll(async () => {
    provider = await OidcTestProvider.start();
  });
  afterAll(async () => {
    await provider.close();
  });

  /** An organisation connected to the provider, with a verified domain of its own, set up as its owner would through the API. */
  async function connectedOrganisation(
    domain = `engines-${randomUUID()}.example.test`, owner?: Owner,
  ): Promise<{ owner: Owner; client: TestClient; domain: string }> {
    const { app, origin } = session.service;
    owner ??= await signupOwner(app, 'Analytical Engines');
    const client = provider.addClient({ redirect_uris: [`${origin}${AUTH}/sso/callback`] });
    const connection = await request(app).put(`${AUTH}/sso/connection`).set(bearer(owner))
      .send({ issuer: provider.issuer, client_id: client.client_id, client_secret: client.client_secret, default_role: 'member' });
    expect(connection.status).toBe(200);
    const claimed = await request(app).post(`${AUTH}/sso/domains`).set(bearer(owner)).send({ domain });
    expect(claimed.status).toBe(201);
    dns.publish(claimed.body.txt_name as string, claimed.body.txt_value as string);
    const verified = await request(app).post(`${AUTH}/sso/domains/${domain}/verify`).set(bearer(owner));
    expect(verified.status).toBe(200);
    return { owner, client, domain };
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('shows the owner the connection made through the API, the redirect URI to register and the verified domain', async () => {
    const { owner, client, domain } = await connectedOrganisation();
    const page = await open();
    await logIn(page, owner.email, PASSWORD);
    await nav(page).getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await expect(page.getByLabel('Issuer').inputValue()).resolves.toBe(provider.issuer);
    await expect(page.getByLabel('Client ID').inputValue()).resolves.toBe(client.client_id);
    await expect(page.getByLabel('Client secret').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Redirect URI').textContent()).resolves.toBe(`${session.service.origin}${AUTH}/sso/callback`);
    const row = page.getByRole('table', { name: 'Domains (1)' }).getByRole('row', { name: new RegExp(`^${domain.replace(/\./g, '\\.')}`) });
    await expect(row.textContent()).resolves.toContain('Verified on');
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([]);
  });

  // ASVS 5.0 V6.8.1 (the person is the provider's subject, signed in by the tenant's own provider) and
  // V14.2.1 (no session token in an address: the console exchanges a one-time code, then drops it from the address bar).
  it('V6.8.1 V14.2.1 signs a person of a verified domain in from "Sign in with SSO" through the provider\'s own login page', async () => {
    const { owner, domain } = await connectedOrganisation();
    const email = `ada@${domain}`;
    const { sub } = provider.addAccount({ sub: `ada-${randomUUID()}`, email, email_verified: true });
    const page = await open('/console/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await expect(page.getByLabel('Work e-mail').inputValue()).resolves.toBe(email);
    await page.getByRole('button', { name: 'Continue' }).click();

    // The provider's own page, on its own origin.
    await page.getByRole('heading', { level: 1, name: 'Sign in to the test provider' }).waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.getByLabel('Username').fill(sub);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    expect(page.url()).toBe(`${session.service.origin}/console/account`);
    await expect(page.getByRole('banner').textContent()).resolves.toContain(`${email} · member`);
    await expect(page.getByRole('banner').textContent()).resolves.toContain('Analytical Engines');

    const members = await request(session.service.app).get(`${AUTH}/members`).set(bearer(owner));
    expect(members.body.members).toEqual(expect.arrayContaining([expect.objectContaining({ email, role: 'member' })]));
  });

  it('runs the owner\'s Test sign-in in a new tab through the provider, which links the owner\'s own account, while the first tab stays signed in', async () => {
    const domain = `engines-${randomUUID()}.example.test`;
    const email = `owner@${domain}`;
    const signup = await request(session.service.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Analytical Engines' });
    expect(signup.status).toBe(201);
    await connectedOrganisation(domain, { email, token: signup.body.token as string });
    const { sub } = provider.addAccount({ sub: `owner-${randomUUID()}`, email, email_verified: true });
    const page = await open();
    await logIn(page, email, PASSWORD);
    await nav(page).getByRole('link', { name: 'Single sign-on' }).click();
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'Test sign-in' }).click(),
    ]);
    await tab.getByRole('heading', { level: 1, name: 'Sign in to the test provider' }).waitFor();
    await tab.getByLabel('Username').fill(sub);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await expect(tab.getByRole('banner').textContent()).resolves.toContain(`${email} · owner`);
    // The owner's first tab keeps its own session.
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await expect(page.getByRole('banner').textContent()).resolves.toContain(`${email} · owner`);
  });

  it('refuses in the page an address whose domain has no single sign-on, and stays on Log in', async () => {
    const page = await open('/console/login');
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Work e-mail').fill(`grace@unclaimed-${randomUUID()}.example.test`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('No single sign-on for this address');
    expect(new URL(page.url()).pathname).toBe('/console/login');
  });
});
