import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { request } from '../support/contract-request';
import { AUTH, bearer, createInvite, PASSWORD, signupOwner } from '../support/http-fixtures';
import type { ChildProcess } from 'node:child_process';
import {
  type ConsoleService, STARTUP_TIMEOUT_MS, describeIfBrowser, freePort, launchChromium, openConsole, startDevServer, startServiceInMemory, useConsole,
} from '../support/browser';

const email = (name: string) => `${name}.${randomBytes(3).toString('hex')}@example.com`;

describeIfBrowser('console: sign up, log in, join (Chromium)', () => {
  const session = useConsole();
  const { open } = session;

  it('cuts the tie to a window of another site that opened it (Cross-Origin-Opener-Policy)', async () => {
    const context = await session.browser.newContext();
    try {
      // Another site: the same server under another host name is another origin and another site.
      const elsewhere = session.service.origin.replace('127.0.0.1', 'localhost');
      const page = await context.newPage();
      await page.goto(`${elsewhere}/healthz`);
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        page.evaluate((url) => {
          (globalThis as { opened?: unknown }).opened = (globalThis as unknown as { open(url: string): unknown }).open(url);
        }, `${session.service.origin}/console/`),
      ]);
      await popup.getByRole('navigation', { name: 'Main' }).waitFor();
      // The console cannot be reached or navigated by its opener, nor reach it.
      await expect(popup.evaluate(() => (globalThis as { opener?: unknown }).opener === null)).resolves.toBe(true);
      await expect(page.evaluate(() => (globalThis as { opened?: { closed: boolean } }).opened!.closed)).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });

  it('signs up a new organisation and lands its owner on Members', async () => {
    const page = await open('/console/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Organisation name').fill('Analytical Engines');
    const owner = email('ada');
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password').fill('analytical');
    // The strength hint, in a polite live region under the field: advice only, never a refusal.
    const strength = page.getByText(/^Password strength:/);
    await expect(strength.textContent()).resolves.toBe('Password strength: Weak: it contains the organisation\'s name, one of the first guesses.');
    await expect(strength.getAttribute('aria-live')).resolves.toBe('polite');
    await page.getByLabel('Password').fill(PASSWORD);
    await expect(strength.textContent()).resolves.toBe('Password strength: Strong.');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    // The heading comes before the member list has loaded: wait for the row, then check it is the only one.
    const ownRow = page.getByRole('row', { name: new RegExp(`${owner} \\(you\\) owner`) });
    await ownRow.waitFor();
    await expect(ownRow.count()).resolves.toBe(1);
    expect(page.url()).toBe(`${session.service.origin}/console/members`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Members', 'Invitations', 'API keys', 'Audit log', 'Account']) {
      await expect(nav.getByRole('link', { name: link }).isVisible()).resolves.toBe(true);
    }
  });

  it('shows the API\'s refusal when the e-mail is already registered', async () => {
    const existing = await signupOwner(session.service.app);
    const page = await open('/console/signup');
    await page.getByLabel('Organisation name').fill('Second Try');
    await page.getByLabel('E-mail').fill(existing.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Email already registered');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign up');
  });

  it('logs in, and refuses a wrong password in the API\'s words', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open('/console/login');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid credentials');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await expect(page.getByText(`${owner.email} · owner`).isVisible()).resolves.toBe(true);
  });

  it('keeps the device proof of a sign-in in a cookie scripts cannot read, and sends it back with the next sign-in (V6.3.1)', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open('/console/login');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    const [cookie] = (await page.context().cookies()).filter((c) => c.name === 'pc_device');
    expect(cookie).toMatchObject({ path: '/api/v1/auth', httpOnly: true, sameSite: 'Strict' });
    await expect(page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).resolves.not.toContain('pc_device');

    await page.goto(`${session.service.origin}/console/login`);
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    const [again] = await Promise.all([
      page.waitForRequest((req) => req.url().endsWith('/api/v1/auth/login')),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect((await again.allHeaders())['cookie']).toContain(`pc_device=${cookie!.value}`);
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  });

  it('joins from an invitation link with its token filled in, then names the organisation and role, as a member who sees only Account, Sessions and Security', async () => {
    const owner = await signupOwner(session.service.app, 'Difference Engines');
    const invite = await createInvite(session.service.app, owner, { role: 'member' });
    const page = await open(`/console/join?token=${invite.token}`);
    await expect(page.getByLabel('Invitation token').inputValue()).resolves.toBe(invite.token);
    await page.getByLabel('E-mail').fill(invite.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    const welcome = page.getByRole('region', { name: 'You have joined Difference Engines' });
    await welcome.waitFor();
    await expect(welcome.getByRole('definition').allTextContents()).resolves.toEqual(['Difference Engines', 'member', invite.email]);
    await expect(page.getByRole('banner').textContent()).resolves.toContain('Difference Engines');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['Account', 'Sessions', 'Security']);
    await welcome.getByRole('link', { name: 'Go to your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    await expect(page.getByRole('definition').allTextContents()).resolves
      .toEqual([invite.email, 'member', 'Difference Engines', owner.tenantId, expect.any(String)]);
  });

  it('explains, in words, why an address with an account in another organisation cannot accept an invitation', async () => {
    const elsewhere = await signupOwner(session.service.app, 'Elsewhere');
    const owner = await signupOwner(session.service.app);
    const invite = await createInvite(session.service.app, owner, { email: elsewhere.email, role: 'admin' });
    const page = await open(`/console/join?token=${invite.token}`);
    await page.getByLabel('E-mail').fill(elsewhere.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'already has an account' }).waitFor();
    expect(await alert.textContent()).toMatch(/one organisation only, so this invitation cannot be accepted with it\. Log in with that address instead/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Join');
  });

  it('refuses an invitation that was already used, in the API\'s words', async () => {
    const owner = await signupOwner(session.service.app);
    const invite = await createInvite(session.service.app, owner);
    await request(session.service.app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token }).expect(201);
    const page = await open(`/console/join?token=${invite.token}`);
    await page.getByLabel('E-mail').fill(email('late'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invite already accepted');
  });

  it('returns to Log in with a note when the session\'s token stops working', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open('/console/login');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    // Elsewhere, the owner changes the password: every token issued before it, the page's included, ends.
    const fresh = await request(session.service.app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD }).expect(200);
    await request(session.service.app).post(`${AUTH}/password`).set(bearer({ token: fresh.body.token as string }))
      .send({ current_password: PASSWORD, new_password: 'a brand new passphrase' }).expect(200);
    await page.getByRole('link', { name: 'Invitations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('Your session has ended (Invalid or expired token). Log in again.');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).resolves.toEqual(['Log in', 'Sign up', 'Join']);
  });
});

describeIfBrowser('console: rate limits (Chromium)', () => {
  const session = useConsole(() => startServiceInMemory({ rateLimits: { global: 1_000, login: 2, signup: 3 } }));

  it('says once when to try again after a 429, from Retry-After', async () => {
    const { page, context, problems } = await openConsole(session.browser, session.service.origin, '/console/login');
    await page.getByLabel('E-mail').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not the password');
    for (const expected of ['Invalid credentials', 'Invalid credentials']) {
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe(expected);
    }
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'Too many requests' }).waitFor();
    expect(await alert.textContent()).toMatch(/^Too many requests\. Try again in \d+ seconds \(at \d{2}:\d{2}:\d{2}\)\.$/);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('checks a sign-up in the page, naming every field, without spending any of the minute\'s three sign-ups', async () => {
    const { page, context, problems } = await openConsole(session.browser, session.service.origin, '/console/signup');
    const signups: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().endsWith('/api/v1/auth/signup')) signups.push(sent.method());
    });
    for (let attempt = 0; attempt < 4; attempt += 1) await page.getByRole('button', { name: 'Sign up' }).click();
    for (const message of ['Enter a name for your organisation.', 'Enter your e-mail address.', 'Choose a password.']) {
      await expect(page.getByText(message, { exact: true }).isVisible()).resolves.toBe(true);
    }
    await page.getByLabel('Organisation name').fill('Analytical Engines');
    await page.getByLabel('E-mail').fill('not an address');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText('Use at least 8 characters.', { exact: true }).isVisible()).resolves.toBe(true);
    expect(signups).toEqual([]);

    await page.getByLabel('E-mail').fill(email('ada'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    expect(signups).toEqual(['POST']);
    await context.close();
    expect(problems).toEqual([]);
  });
});

describeIfBrowser('console: the development server, calling the API across origins (Chromium)', () => {
  let browser: Browser;
  let api: ConsoleService;
  let vite: ChildProcess | undefined;
  let devOrigin: string;

  beforeAll(async () => {
    const port = await freePort();
    devOrigin = `http://127.0.0.1:${port}`;
    // The API allows the development server's origin, as it allows http://localhost:5173 by default.
    [browser, api] = await Promise.all([launchChromium(), startServiceInMemory({ corsOrigin: devOrigin })]);
    vite = await startDevServer(port, api.origin);

  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    vite?.kill('SIGTERM');
    await browser?.close();
    await api?.close();
  });

  it('signs up from the development server\'s page through CORS', async () => {
    const { page, context, problems } = await openConsole(browser, devOrigin, '/console/signup');
    await page.getByLabel('Organisation name').fill('Hot Reload');
    const owner = email('dev');
    await page.getByLabel('E-mail').fill(owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('cell', { name: `${owner} (you)` }).waitFor();
    await context.close();
    expect(problems).toEqual([]);
  });
});
