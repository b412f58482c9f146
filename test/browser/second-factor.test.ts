import type { Page } from 'playwright-core';
import { TestClock } from '../../src/testing/test-clock';
import { codeAt, enrollApp } from '../http-db/second-factors-flow';
import { request } from '../support/contract-request';
import { AUTH, bearer, PASSWORD, signupOwner } from '../support/http-fixtures';
import { describeIfBrowser, logIn, seriousAccessibilityViolations, startService, useConsole } from '../support/browser';

/**
 * Second factors in the console, against the real service in Chromium: an authenticator app set up
 * on Security and asked for at the next sign-in, a recovery code in its place, and a passkey made by
 * Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain) and used to sign in
 * without a password. The service's relying party is its PUBLIC_URL, the page's own origin (localhost).
 */
describeIfBrowser('console: second factors on Security and at Log in (Chromium)', () => {
  // Stands still unless moved: each authenticator-app code is accepted once, so a test moves to the next 30-second step.
  const clock = new TestClock();
  // By name, not 127.0.0.1: WebAuthn takes no IP address as a relying party id.
  const session = useConsole(() => startService([], { clock, hostname: 'localhost' }));
  const { open } = session;
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  }

  async function passwordStep(page: Page, email: string): Promise<void> {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 2, name: 'Second factor' }).waitFor();
  }

  // ASVS 5.0 V6.3.3 (a second factor asked for after the password) and V6.5.1 (each code accepted once).
  it('sets up an authenticator app with its code, shows the recovery codes once, and asks for a code at the next sign-in', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open();
    await logIn(page, owner.email, PASSWORD);
    await nav(page).getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByLabel('Key for your authenticator app').textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([]);

    await page.getByLabel('Code from the app').fill(codeAt(secret, clock.now()));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const panel = page.getByRole('region', { name: 'Your recovery codes' });
    await panel.waitFor();
    const codes = await panel.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    // The download holds the same codes, as a text file.
    const href = (await panel.getByRole('link', { name: 'Download as a text file' }).getAttribute('href'))!;
    expect(decodeURIComponent(href.replace(/^data:text\/plain;charset=utf-8,/, '')).split('\n')).toEqual(expect.arrayContaining(codes));
    await panel.getByRole('button', { name: 'Copy the recovery codes' }).click();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(codes.join('\n'));
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([]);
    await panel.getByRole('button', { name: 'Done' }).click();
    await page.getByText('10 recovery codes left.', { exact: false }).waitFor();
    await expect(page.getByText(codes[0]!).count()).resolves.toBe(0);

    await signOut(page);
    await passwordStep(page, owner.email);
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([]);
    // The code that confirmed the app is spent; the next step's code signs in.
    await page.getByLabel('Code from your authenticator app').fill(codeAt(secret, clock.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid second factor');
    clock.advance({ seconds: 30 });
    await page.getByLabel('Code from your authenticator app').fill(codeAt(secret, clock.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  });

  // ASVS 5.0 V7.5.1: setting up a factor needs the password proved again when the sign-in was a while ago.
  it('asks for the password again before setting up an app when the sign-in was long ago, then goes on', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open();
    // Logged in longer ago than the reauthentication window (REAUTH_WINDOW_SECONDS).
    await clock.whileAgo({ minutes: 20 }, () => logIn(page, owner.email, PASSWORD));
    await nav(page).getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
  });

  // ASVS 5.0 V6.5.1: a recovery code signs in once.
  it('signs in with a recovery code in place of the app, and refuses the same code the next time', async () => {
    const owner = await signupOwner(session.service.app);
    clock.advance({ seconds: 30 });
    const { recoveryCodes } = await enrollApp(session.service.app, clock, owner);
    const page = await open();
    await passwordStep(page, owner.email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[3]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await nav(page).getByRole('link', { name: 'Security' }).click();
    await page.getByText('9 recovery codes left.', { exact: false }).waitFor();

    await signOut(page);
    await passwordStep(page, owner.email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[3]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid second factor');
  });

  // ASVS 5.0 V6.3.3: a passkey (a hardware-backed factor that verified the person) registered in the browser signs in alone.
  it('adds a passkey through Chromium\'s virtual authenticator, then signs in with it alone', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open();
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await logIn(page, owner.email, PASSWORD);
    await nav(page).getByRole('link', { name: 'Security' }).click();
    await page.getByText('You have no passkey yet.').waitFor();
    await page.getByLabel('Passkey name').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'passkey' }).textContent()).resolves.toBe('Added the passkey Test laptop.');
    const table = page.getByRole('table', { name: 'Your passkeys (1)' });
    await table.getByRole('row', { name: /Test laptop/ }).waitFor();
    const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([]);

    // Renamed: the list and the API agree.
    await page.getByRole('button', { name: 'Rename passkey Test laptop' }).click();
    await page.getByLabel('New name').fill('Chromium laptop');
    await page.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('row', { name: /Chromium laptop/ }).waitFor();
    const listed = await request(session.service.app).get(`${AUTH}/mfa/passkeys`).set(bearer(owner)).expect(200);
    expect(listed.body.passkeys.map((p: { name: string }) => p.name)).toEqual(['Chromium laptop']);

    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await expect(page.getByRole('banner').textContent()).resolves.toContain(owner.email);
    await nav(page).getByRole('link', { name: 'Security' }).click();
    await expect(table.getByRole('row', { name: /Chromium laptop/ }).textContent()).resolves.not.toContain('Never');
  });
});
