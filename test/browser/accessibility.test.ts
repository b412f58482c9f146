import path from 'node:path';
import type { Page } from 'playwright-core';
import { request } from '../support/contract-request';
import { AUTH, bearer, createInvite, PASSWORD } from '../support/http-fixtures';
import {
  describeIfBrowser, logIn, openConsole, screenshotDirectory, seriousAccessibilityViolations, useConsole,
} from '../support/browser';

/**
 * Every screen, in the state a person would see it in, scanned by axe-core (no serious or critical
 * violation) and photographed: docs/console.md shows these pictures (CONSOLE_SCREENSHOTS=1 writes
 * them to docs/console).
 */
describeIfBrowser('console: accessibility of every screen (Chromium, axe-core)', () => {
  const session = useConsole();
  const pictures = screenshotDirectory();

  async function check(page: Page, name: string): Promise<void> {
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: path.join(pictures, `${name}.png`) });
  }

  it('has a scanner that does report a serious violation', async () => {
    const { page, context } = await openConsole(session.browser, session.service.origin, '/console/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.evaluate("document.querySelector('label').remove()"); // an input without a name
    await expect(seriousAccessibilityViolations(page)).resolves.toEqual([expect.stringMatching(/^critical label: /)]);
    await context.close();
  });

  it('finds no serious or critical violation on any screen, signed out or in', async () => {
    const suffix = Date.now().toString(36).slice(-4);
    const ownerEmail = `ada.${suffix}@example.com`;
    const signup = await request(session.service.app).post(`${AUTH}/signup`).send({ email: ownerEmail, password: PASSWORD, tenant_name: 'Analytical Engines' }).expect(201);
    const owner = { token: signup.body.token as string };
    const accountOf = await request(session.service.app).get(`${AUTH}/me`).set(bearer(owner)).expect(200);
    const ownerAccount = { email: ownerEmail, token: owner.token, tenantId: signup.body.tenant_id as string, userId: accountOf.body.user_id as string, role: 'owner' };
    for (const [name, role] of [['grace', 'admin'], ['linus', 'viewer']] as const) {
      const joining = await createInvite(session.service.app, ownerAccount, { email: `${name}.${suffix}@example.com`, role });
      await request(session.service.app).post(`${AUTH}/signup`).send({ email: joining.email, password: PASSWORD, invite_token: joining.token }).expect(201);
    }
    await createInvite(session.service.app, ownerAccount, { email: `barbara.${suffix}@example.com`, role: 'member' });
    await request(session.service.app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ name: 'nightly-export', expires_in_days: 90 }).expect(201);
    const invite = await createInvite(session.service.app, ownerAccount, { email: `margaret.${suffix}@example.com`, role: 'viewer' });

    const { page, context, problems } = await openConsole(session.browser, session.service.origin, `/console/join?token=${invite.token}`);
    await page.getByRole('heading', { level: 1, name: 'Join' }).waitFor();
    await check(page, 'join');
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    // With the strength hint showing, so its text and colours are checked too.
    await page.getByLabel('Password').fill('plumtree');
    await page.getByText(/^Password strength:/).waitFor();
    await check(page, 'signup');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('E-mail').fill(ownerEmail);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    await check(page, 'login');

    await logIn(page, ownerEmail, PASSWORD);
    await page.getByRole('table').waitFor();
    await check(page, 'members');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Invitations' }).click();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(`alan.${suffix}@example.com`);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('region', { name: /^Invitation for/ }).waitFor();
    await page.getByRole('table').waitFor();
    await check(page, 'invitations');

    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('ci-deploy');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: 'New key ci-deploy' }).waitFor();
    await page.getByRole('row', { name: /ci-deploy/ }).waitFor();
    await check(page, 'api-keys');

    await nav.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('table').waitFor();
    await check(page, 'audit-log');

    await nav.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { level: 2, name: 'Who you are' }).waitFor();
    await check(page, 'account');

    await nav.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('table', { name: /^Where you are signed in/ }).waitFor();
    await check(page, 'sessions');

    // Security while an authenticator app is being set up: the QR code, the key and the code's field.
    await nav.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await check(page, 'security');

    await context.close();
    expect(problems).toEqual([]);
  });

  it('finds none on the screens e-mailed links lead to, nor on the development mailbox', async () => {
    const suffix = Date.now().toString(36).slice(-4);
    const email = `ada.mail.${suffix}@example.com`;
    await request(session.service.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Analytical Engines' }).expect(201);
    const { page, context, problems } = await openConsole(session.browser, session.service.origin, '/console/forgot-password');
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await check(page, 'forgot-password');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    await check(page, 'forgot-password-sent');

    await session.service.deliverMail();
    await page.goto(`${session.service.origin}/console/dev/mailbox`);
    await page.getByRole('article', { name: new RegExp(`^Reset your password .* to ${email.replace(/\./g, '\\.')}$`) }).waitFor();
    await check(page, 'dev-mailbox');

    await page.goto(`${session.service.origin}/console/reset-password?token=${'0'.repeat(64)}`);
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Confirm new password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('alert').waitFor();
    await check(page, 'reset-password');

    // A refused link on each (the outcome that does not depend on a real link's token).
    for (const screen of ['verify-email', 'confirm-email']) {
      await page.goto(`${session.service.origin}/console/${screen}?token=${'0'.repeat(64)}`);
      await page.getByRole('alert').waitFor();
      await check(page, screen);
    }

    await context.close();
    expect(problems).toEqual([]);
  });
});
