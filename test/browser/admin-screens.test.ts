import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { request } from '../support/contract-request';
import { AUTH, bearer, createInvite, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { describeIfBrowser, logIn, tabTo, useConsole } from '../support/browser';

describeIfBrowser('console: the administration screens (Chromium)', () => {
  const session = useConsole();
  const { open } = session;
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const cellsOf = (page: Page, rowName: string | RegExp) => page.getByRole('row', { name: rowName }).getByRole('cell').allTextContents();

  describe('Members', () => {
    it('changes a member\'s role and removes a member', async () => {
      const owner = await signupOwner(session.service.app);
      const member = await joinWithRole(session.service.app, owner, 'member');
      const leaving = await joinWithRole(session.service.app, owner, 'viewer');
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await page.getByRole('combobox', { name: `Role for ${member.email}` }).selectOption('viewer');
      await page.getByRole('button', { name: `Change role of ${member.email}` }).click();
      await expect(page.getByRole('status').filter({ hasText: 'is now' }).textContent()).resolves.toBe(`${member.email} is now viewer.`);
      await page.getByRole('row', { name: new RegExp(`^${member.email} viewer`) }).waitFor();

      await page.getByRole('button', { name: `Remove ${leaving.email}` }).click();
      await page.getByRole('button', { name: `Confirm removing ${leaving.email}` }).click();
      await expect(page.getByRole('status').filter({ hasText: 'removed' }).textContent()).resolves.toBe(`${leaving.email} was removed.`);
      await page.getByRole('row', { name: new RegExp(leaving.email) }).waitFor({ state: 'detached' });
      await page.getByRole('table', { name: 'Everyone in your organisation (2)' }).waitFor();
    });

    it('shows the API\'s refusal when the last owner would be demoted', async () => {
      const owner = await signupOwner(session.service.app);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await page.getByRole('combobox', { name: `Role for ${owner.email}` }).selectOption('admin');
      await page.getByRole('button', { name: `Change role of ${owner.email}` }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe('The last owner cannot be demoted or removed');
      expect((await cellsOf(page, new RegExp(`^${owner.email}`))).slice(0, 2)).toEqual([`${owner.email} (you)`, 'owner']);
    });

    it('gives an admin no controls over an owner, and no role above admin to grant', async () => {
      const owner = await signupOwner(session.service.app);
      const admin = await joinWithRole(session.service.app, owner, 'admin');
      const page = await open();
      await logIn(page, admin.email, PASSWORD);
      expect(await cellsOf(page, new RegExp(`^${owner.email}`))).toEqual([owner.email, 'owner', expect.any(String), 'Only an owner can change an owner.']);
      await expect(page.getByRole('combobox', { name: `Role for ${admin.email}` }).getByRole('option').allTextContents())
        .resolves.toEqual(['admin', 'member', 'viewer']);
    });
  });

  describe('Invitations', () => {
    it('invites with the keyboard alone; the link, shown once, copies and lets the person join', async () => {
      const owner = await signupOwner(session.service.app);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await tabTo(page, nav(page).getByRole('link', { name: 'Invitations' }));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Invitations' }).waitFor();
      const invited = `grace.${Date.now()}@example.com`;
      await tabTo(page, page.getByRole('textbox', { name: 'E-mail' }));
      await page.keyboard.type(invited);
      await page.keyboard.press('Tab');
      await page.keyboard.type('v'); // the role list jumps to "viewer"
      await tabTo(page, page.getByRole('button', { name: 'Invite' }));
      await page.keyboard.press('Enter');

      const panel = page.getByRole('region', { name: `Invitation for ${invited}` });
      await panel.waitFor();
      const link = await panel.getByRole('textbox', { name: 'Invitation link' }).inputValue();
      const token = await panel.getByRole('textbox', { name: 'Invitation token' }).inputValue();
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(link).toBe(`${session.service.origin}/console/join?token=${token}`);
      await tabTo(page, panel.getByRole('button', { name: 'Copy link' }));
      await page.keyboard.press('Enter');
      await panel.getByText('Copied.').waitFor();
      await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link);
      expect(await cellsOf(page, new RegExp(`^${invited}`))).toEqual([invited, 'viewer', expect.any(String), expect.any(String), 'ResendRevoke']); // the actions cell: Resend, then Revoke

      await tabTo(page, panel.getByRole('button', { name: 'Done' }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('textbox', { name: 'Invitation token' }).count()).resolves.toBe(0); // shown once

      const invitee = await open(link.slice(session.service.origin.length));
      await invitee.getByLabel('E-mail').fill(invited);
      await invitee.getByLabel('Password').fill(PASSWORD);
      await invitee.getByRole('button', { name: 'Join' }).click();
      const welcome = invitee.getByRole('region', { name: /^You have joined / });
      await welcome.waitFor();
      await expect(welcome.getByRole('definition').nth(1).textContent()).resolves.toBe('viewer');
    });

    it('lists pending invitations newest first and revokes one', async () => {
      const owner = await signupOwner(session.service.app);
      const older = await createInvite(session.service.app, owner);
      const newer = await createInvite(session.service.app, owner, { role: 'admin' });
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await nav(page).getByRole('link', { name: 'Invitations' }).click();
      const rows = page.getByRole('table').getByRole('row');
      await rows.nth(2).waitFor();
      await expect(rows.nth(1).getByRole('cell').first().textContent()).resolves.toBe(newer.email);
      await expect(rows.nth(2).getByRole('cell').first().textContent()).resolves.toBe(older.email);
      await page.getByRole('button', { name: `Revoke invitation for ${older.email}` }).click();
      await expect(page.getByRole('status').filter({ hasText: 'revoked' }).textContent()).resolves.toBe(`The invitation for ${older.email} was revoked.`);
      await page.getByRole('row', { name: new RegExp(older.email) }).waitFor({ state: 'detached' });
      const listed = await request(session.service.app).get(`${AUTH}/invites`).set(bearer(owner)).expect(200);
      expect(listed.body.invites.map((i: { email: string }) => i.email)).toEqual([newer.email]);
    });

    it('shows the API\'s refusal of an address that is not one', async () => {
      const owner = await signupOwner(session.service.app);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await nav(page).getByRole('link', { name: 'Invitations' }).click();
      await page.getByRole('textbox', { name: 'E-mail' }).fill('not-an-address');
      await page.getByRole('button', { name: 'Invite' }).click();
      const apiSays = await request(session.service.app).post(`${AUTH}/invite`).set(bearer(owner)).send({ email: 'not-an-address', role: 'member' }).expect(400);
      await expect(page.getByRole('alert').textContent()).resolves.toBe(apiSays.body.error);
    });
  });

  describe('API keys', () => {
    it('creates a key with the keyboard alone, shows it once, lists it, and revokes it', async () => {
      const owner = await signupOwner(session.service.app);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await tabTo(page, nav(page).getByRole('link', { name: 'API keys' }));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await tabTo(page, page.getByRole('textbox', { name: 'Name' }));
      await page.keyboard.type('ci-deploy');
      await tabTo(page, page.getByRole('spinbutton', { name: 'Expires in (days)' }));
      await page.keyboard.type('30');
      await page.keyboard.press('Enter'); // submits the form

      const panel = page.getByRole('region', { name: 'New key ci-deploy' });
      await panel.waitFor();
      await expect(panel.getByText('Copy this key now: you will not see it again.').isVisible()).resolves.toBe(true);
      const key = await panel.getByRole('textbox', { name: 'New API key' }).inputValue();
      expect(key).toMatch(/^pcls_[0-9a-f]{32}$/);
      await tabTo(page, panel.getByRole('button', { name: 'Copy key' }));
      await page.keyboard.press('Enter');
      await panel.getByText('Copied.').waitFor();
      await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(key);
      await request(session.service.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);

      await page.keyboard.press('Tab');
      await tabTo(page, panel.getByRole('button', { name: 'Done' }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('textbox', { name: 'New API key' }).count()).resolves.toBe(0);
      const prefix = key.slice(0, 13);
      const row = page.getByRole('row', { name: new RegExp(`^${prefix}`) });
      await row.waitFor();
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells).toEqual([prefix, 'ci-deploy', owner.email, expect.any(String), expect.any(String), expect.any(String), 'Active', 'Revoke']);
      expect(cells[5]).not.toBe('Never');

      await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
      // Nothing is revoked until the second, named click.
      await request(session.service.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
      await page.getByRole('button', { name: `Confirm revoking key ${prefix}` }).click();
      await expect(page.getByRole('status').filter({ hasText: 'revoked' }).textContent()).resolves.toBe(`Key ${prefix} was revoked.`);
      await page.getByRole('row', { name: new RegExp(`^${prefix}.*Revoked`) }).waitFor();
      await request(session.service.app).get(`${AUTH}/me`).set('x-api-key', key).expect(401);
    });

    it('shows the API\'s refusal of an expiry beyond its limit', async () => {
      const owner = await signupOwner(session.service.app);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await nav(page).getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('spinbutton', { name: 'Expires in (days)' }).fill('400');
      await page.getByRole('button', { name: 'Create key' }).click();
      const apiSays = await request(session.service.app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ expires_in_days: 400 }).expect(400);
      await expect(page.getByRole('alert').textContent()).resolves.toBe(apiSays.body.error);
      const listed = await request(session.service.app).get(`${AUTH}/api-keys`).set(bearer(owner)).expect(200);
      expect(listed.body.api_keys).toEqual([]);
    });
  });

  describe('Audit log', () => {
    it('lists events newest first, pages, filters by action and actor, and exports the shown page as CSV', async () => {
      const owner = await signupOwner(session.service.app);
      const admin = await joinWithRole(session.service.app, owner, 'admin');
      for (let i = 0; i < 25; i += 1) await createInvite(session.service.app, owner);
      // A caller chooses its user agent, which the trail keeps: a formula, in OWASP's own example.
      const hostile = '=1+2";=1+2';
      await request(session.service.app).post(`${AUTH}/invite`).set(bearer(owner)).set('user-agent', hostile).send({ email: `ua-${Date.now()}@example.com` }).expect(201);
      await createInvite(session.service.app, admin);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await nav(page).getByRole('link', { name: 'Audit log' }).click();
      const status = page.getByRole('status').filter({ hasText: /^Page/ });
      await expect(status.textContent()).resolves.toBe('Page 1: 25 events, newest first');
      const rows = page.getByRole('table').getByRole('row');
      // Newest first: the session the owner's login through the console started, the login, then the admin's invite.
      expect((await rows.nth(1).getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['session.started', owner.email]);
      expect((await rows.nth(2).getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['login.succeeded', owner.email]);
      expect((await rows.nth(3).getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['invite.created', admin.email]);

      await page.getByRole('button', { name: 'Next page' }).click();
      await status.filter({ hasText: 'Page 2' }).waitFor();
      const secondPage = await status.textContent();
      expect(secondPage).toMatch(/^Page 2: \d+ events, newest first$/);

      await page.getByRole('combobox', { name: 'Action' }).selectOption('invite.created');
      await page.getByRole('combobox', { name: 'Actor' }).selectOption({ label: admin.email });
      await page.getByRole('button', { name: 'Show events' }).click();
      await status.filter({ hasText: 'Page 1: 1 event,' }).waitFor();
      expect((await rows.nth(1).getByRole('cell').allTextContents()).slice(1, 3)).toEqual(['invite.created', admin.email]);

      await page.getByRole('combobox', { name: 'Actor' }).selectOption({ label: owner.email });
      await page.getByRole('button', { name: 'Show events' }).click();
      await status.filter({ hasText: 'Page 1: 25 events' }).waitFor();
      const actions = await page.getByRole('table').locator('tbody tr td:nth-child(2)').allTextContents();
      expect(new Set(actions)).toEqual(new Set(['invite.created']));

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
      expect(download.suggestedFilename()).toBe('audit-log-page-1.csv');
      expect(csv[0]).toBe('"occurred_at","action","actor_user_id","actor_email","actor_auth","target_id","client_ip","user_agent","request_id","details"');
      expect(csv).toHaveLength(26);
      for (const line of csv.slice(1)) expect(line).toContain(`,"invite.created","${owner.userId}","${owner.email}","jwt",`);
      // Every cell quoted, its quotes doubled, and the formula turned into text by a leading apostrophe.
      expect(csv[1]).toContain(',"\'=1+2"";=1+2",');
    });

    it('is refused to a viewer: no link to it, and its address says what the API would', async () => {
      const owner = await signupOwner(session.service.app);
      const viewer = await joinWithRole(session.service.app, owner, 'viewer');
      const page = await open();
      await logIn(page, viewer.email, PASSWORD, 'Account');
      await expect(nav(page).getByRole('link').allTextContents()).resolves.toEqual(['Account', 'Sessions', 'Security']);
      await page.evaluate("history.pushState(null, '', '/console/audit-log'); dispatchEvent(new PopStateEvent('popstate'))");
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Requires admin role or higher');
      await expect(page.getByRole('main').getByRole('button').count()).resolves.toBe(0);
      const apiSays = await request(session.service.app).get(`${AUTH}/audit-events`).set(bearer(viewer)).expect(403);
      expect(apiSays.body.error).toBe('Requires admin role or higher');
    });
  });

  describe('Account', () => {
    it('shows who you are, refuses a wrong current password, changes it, keeps working, and logs out', async () => {
      const owner = await signupOwner(session.service.app);
      const page = await open();
      await logIn(page, owner.email, PASSWORD);
      await nav(page).getByRole('link', { name: 'Account' }).click();
      await expect(page.getByRole('definition').allTextContents()).resolves.toEqual([owner.email, 'owner', 'Acme', owner.tenantId, owner.userId]);

      await page.getByLabel('Current password').fill('not the password');
      await page.getByLabel('New password').fill('a brand new passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Current password is incorrect');

      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor();
      // The page now holds the fresh token: the old one is refused, the screens still load.
      await nav(page).getByRole('link', { name: 'Members' }).click();
      await page.getByRole('row', { name: new RegExp(owner.email) }).waitFor();
      await request(session.service.app).get(`${AUTH}/me`).set(bearer(owner)).expect(401);

      await nav(page).getByRole('link', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await expect(page.getByRole('status').first().textContent()).resolves.toBe('You have signed out.');
      await expect(nav(page).getByRole('link').allTextContents()).resolves.toEqual(['Log in', 'Sign up', 'Join']);
    });
  });
});
