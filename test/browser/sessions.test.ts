import type { Page } from 'playwright-core';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { AUTH, bearer, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { describeIfBrowser, logIn, seriousAccessibilityViolations, startService, useConsole } from '../support/browser';

/**
 * Sessions in the console, against the real service: a session is the unit of revocation (ASVS 5.0
 * V7.4.1: a terminated session's token is refused from its next request on; V7.4.4: Sign out on
 * every signed-in page; V7.5.2: a person sees their active sessions and ends any of them; V7.4.5: an
 * administrator ends a member's sessions).
 */
describeIfBrowser('console: sessions, Sign out and signing a member out everywhere (Chromium)', () => {
  // Stands still unless moved: an admin's login made "a while ago" needs the password again.
  const clock = new TestClock();
  const session = useConsole(() => startService([], { clock }));
  const { open } = session;
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const bouncedToLogIn = async (page: Page) => {
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('Your session has ended (Invalid or expired token). Log in again.');
  };

  /** The fixture's own session (made through the API) ended, so the browsers' are the only ones. */
  async function withoutApiSession(account: Account): Promise<Account> {
    await request(session.service.app).post(`${AUTH}/logout`).set(bearer(account)).expect(204);
    return account;
  }

  async function apiLogin(email: string): Promise<{ token: string }> {
    const res = await request(session.service.app).post(`${AUTH}/login`).send({ email, password: PASSWORD }).expect(200);
    return { token: res.body.token as string };
  }

  it('lists two browsers signed in as one person, this one marked, and ends the other, whose next click lands on Log in', async () => {
    const owner = await withoutApiSession(await signupOwner(session.service.app));
    const here = await open();
    const there = await open();
    await logIn(there, owner.email, PASSWORD);
    await logIn(here, owner.email, PASSWORD);

    await nav(here).getByRole('link', { name: 'Sessions' }).click();
    const table = here.getByRole('table', { name: 'Where you are signed in (2)' });
    await table.waitFor();
    await expect(table.getByRole('row', { name: /This device/ }).count()).resolves.toBe(1);
    // This device's row comes first and has no End: Sign out ends it.
    await expect(table.getByRole('row').nth(1).getByRole('button').count()).resolves.toBe(0);
    const end = table.getByRole('button', { name: /^End session: Chrome \d+ on Linux, started / });
    await expect(end.count()).resolves.toBe(1);
    await end.click();
    await expect(here.getByRole('status').filter({ hasText: 'Signed out' }).textContent()).resolves.toMatch(/^Signed out the session on Chrome \d+ on Linux\.$/);
    await here.getByRole('table', { name: 'Where you are signed in (1)' }).waitFor();

    await nav(there).getByRole('link', { name: 'Invitations' }).click();
    await bouncedToLogIn(there);
  });

  it('signs out every other session at once, saying how many ended', async () => {
    const owner = await withoutApiSession(await signupOwner(session.service.app));
    const others = [await open(), await open()];
    for (const page of others) await logIn(page, owner.email, PASSWORD);
    const here = await open();
    await logIn(here, owner.email, PASSWORD);
    await nav(here).getByRole('link', { name: 'Sessions' }).click();
    await here.getByRole('table', { name: 'Where you are signed in (3)' }).waitFor();
    await here.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await expect(here.getByRole('status').filter({ hasText: 'Signed out' }).textContent()).resolves.toBe('Signed out 2 other sessions.');
    await here.getByRole('table', { name: 'Where you are signed in (1)' }).waitFor();
    for (const page of others) {
      await nav(page).getByRole('link', { name: 'Audit log' }).click();
      await bouncedToLogIn(page);
    }
  });

  it('ends the session at the service on Sign out, not only in the page', async () => {
    const owner = await signupOwner(session.service.app);
    const page = await open();
    await logIn(page, owner.email, PASSWORD);
    const listed = async () => (await request(session.service.app).get(`${AUTH}/sessions`).set(bearer(owner)).expect(200)).body.sessions as unknown[];
    await expect(listed()).resolves.toHaveLength(2);
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('You have signed out.');
    await expect(listed()).resolves.toHaveLength(1);
  });

  it('lets an admin sign a member out everywhere, asking for the password first, and the member\'s page lands on Log in', async () => {
    const owner = await signupOwner(session.service.app);
    const admin = await joinWithRole(session.service.app, owner, 'admin');
    const member = await joinWithRole(session.service.app, owner, 'member');
    const members = await open();
    await logIn(members, member.email, PASSWORD, 'Account');
    const admins = await open();
    // Logged in longer ago than the reauthentication window (REAUTH_WINDOW_SECONDS): the password is asked again.
    await clock.whileAgo({ minutes: 20 }, () => logIn(admins, admin.email, PASSWORD));

    await admins.getByRole('button', { name: `Sign out everywhere: ${member.email}` }).click();
    await admins.getByRole('button', { name: `Confirm sign-out of ${member.email} everywhere` }).click();
    const dialog = admins.getByRole('dialog', { name: 'Confirm your password' });
    // Escape closes the prompt and leaves the API's refusal beside the member.
    await dialog.getByLabel('Password', { exact: true }).waitFor();
    await admins.keyboard.press('Escape');
    await expect(admins.getByRole('alert').textContent()).resolves.toBe('Recent authentication required');

    await admins.getByRole('button', { name: `Confirm sign-out of ${member.email} everywhere` }).click();
    await dialog.getByLabel('Password', { exact: true }).waitFor();
    await expect(seriousAccessibilityViolations(admins)).resolves.toEqual([]);
    await dialog.getByLabel('Password', { exact: true }).fill('not the password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog.getByRole('alert').textContent()).resolves.toBe('Invalid credentials');
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(admins.getByRole('status').filter({ hasText: 'everywhere' }).textContent())
      .resolves.toBe(`Signed ${member.email} out everywhere: 2 sessions ended.`);
    await dialog.waitFor({ state: 'detached' });

    await nav(members).getByRole('link', { name: 'Sessions' }).click();
    await bouncedToLogIn(members);
    // The member's own API session went too; a new login works as ever.
    await request(session.service.app).get(`${AUTH}/me`).set(bearer(member)).expect(401);
    await request(session.service.app).get(`${AUTH}/me`).set(bearer(await apiLogin(member.email))).expect(200);
  });
});
