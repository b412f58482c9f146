import type { Page } from 'playwright-core';
import { notesModule } from '../../examples/notes/notes-module';
import { NOTES_PATH } from '../../examples/notes/adapters/http/note-routes';
import { request } from '../support/contract-request';
import { AUTH, bearer, createInvite, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { describeIfBrowser, logIn, startService, useConsole } from '../support/browser';

/** How far the page itself scrolls sideways: 0 when everything fits the window. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describeIfBrowser('console: what a tenant administrator meets day to day (Chromium)', () => {
  const session = useConsole(() => startService([notesModule]));
  const { open } = session;
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('names the organisation in the header, with Sign out beside it', async () => {
    const owner = await signupOwner(session.service.app, 'Analytical Engines');
    const page = await open();
    await logIn(page, owner.email, PASSWORD);
    const header = page.getByRole('banner');
    await expect(header.getByText('Analytical Engines').isVisible()).resolves.toBe(true);
    await header.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expect(header.textContent()).resolves.not.toContain('Analytical Engines');
  });

  it('fits every screen, tables included, on a phone: the page never scrolls sideways', async () => {
    const owner = await signupOwner(session.service.app, 'A Rather Long Organisation Name For A Small Screen Ltd');
    const member = await joinWithRole(session.service.app, owner, 'member');
    await createInvite(session.service.app, owner, { email: `someone.with.a.long.address.${Date.now()}@example.com`, role: 'viewer' });
    await request(session.service.app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ name: 'deploys from the build server' }).expect(201);
    await request(session.service.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
    const page = await open();
    await page.setViewportSize({ width: 360, height: 740 });
    for (const screen of ['Log in', 'Sign up', 'Join']) {
      await nav(page).getByRole('link', { name: screen }).click();
      await page.getByRole('heading', { level: 1, name: screen }).waitFor();
      expect({ screen, overflow: await sidewaysOverflow(page) }).toEqual({ screen, overflow: 0 });
    }
    await logIn(page, owner.email, PASSWORD);
    const tables: Record<string, string> = {
      Members: 'Members', Invitations: 'Pending invitations', 'API keys': 'Keys', 'Audit log': 'Audit events',
    };
    for (const [screen, table] of Object.entries(tables)) {
      await nav(page).getByRole('link', { name: screen }).click();
      await page.getByRole('heading', { level: 1, name: screen }).waitFor();
      const box = page.getByRole('region', { name: table });
      await box.getByRole('row').nth(1).waitFor();
      expect({ screen, overflow: await sidewaysOverflow(page) }).toEqual({ screen, overflow: 0 });
      // The table's own box scrolls instead, and can be reached and scrolled from the keyboard.
      await expect(box.evaluate((element) => (element as unknown as { tabIndex: number }).tabIndex)).resolves.toBe(0);
    }
    await nav(page).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    expect({ screen: 'Account', overflow: await sidewaysOverflow(page) }).toEqual({ screen: 'Account', overflow: 0 });
  });

  it('offers the installed modules\' actions in the audit filter, and filters by one', async () => {
    const owner = await signupOwner(session.service.app);
    await request(session.service.app).post(NOTES_PATH).set(bearer(owner)).send({ title: 'Minutes' }).expect(201);
    const page = await open();
    await logIn(page, owner.email, PASSWORD);
    await nav(page).getByRole('link', { name: 'Audit log' }).click();
    const action = page.getByRole('combobox', { name: 'Action' });
    await action.getByRole('option', { name: 'note.deleted' }).waitFor({ state: 'attached' });
    const options = await action.getByRole('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['login.failed', 'note.created', 'note.deleted']));
    await action.selectOption('note.created');
    await page.getByRole('button', { name: 'Show events' }).click();
    await page.getByText('Page 1: 1 event, newest first').waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  });

  it('names audit targets in words: keys by prefix and name, members by e-mail, role changes from and to', async () => {
    const owner = await signupOwner(session.service.app);
    const member = await joinWithRole(session.service.app, owner, 'member');
    const leaving = await joinWithRole(session.service.app, owner, 'viewer');
    const key = await request(session.service.app).post(`${AUTH}/api-keys`).set(bearer(owner)).send({ name: 'ci' }).expect(201);
    await request(session.service.app).delete(`${AUTH}/api-keys/${key.body.id as string}`).set(bearer(owner)).expect(200);
    await request(session.service.app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'admin' }).expect(200);
    await request(session.service.app).delete(`${AUTH}/members/${leaving.userId}`).set(bearer(owner)).expect(200);
    const page = await open();
    await logIn(page, owner.email, PASSWORD);
    await nav(page).getByRole('link', { name: 'Audit log' }).click();
    const table = page.getByRole('table', { name: 'Audit events' });
    const targetOf = async (action: string) => (await table.getByRole('row', { name: new RegExp(` ${action.replace('.', '\\.')} `) }).first().getByRole('cell').allTextContents())[4];
    await table.getByRole('row').nth(1).waitFor();
    const prefix = key.body.prefix as string;
    await expect(targetOf('api_key.created')).resolves.toBe(`key ${prefix} ("ci")`);
    await expect(targetOf('api_key.revoked')).resolves.toBe(`key ${prefix} ("ci")`);
    await expect(targetOf('member.role_changed')).resolves.toBe(`${member.email}: member → admin`);
    await expect(targetOf('member.removed')).resolves.toBe(`${leaving.email} (was viewer)`);
  });
});
