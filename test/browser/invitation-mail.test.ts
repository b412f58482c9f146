import { PASSWORD, signupOwner } from '../support/http-fixtures';
import { describeIfBrowser, logIn, useConsole } from '../support/browser';

/**
 * An invitation, end to end by e-mail: an admin invites from the console, the service's development
 * mailbox holds the message, its link opens the console's Join screen with the token, and the
 * invitee joins with the invited role. Then Resend sends the same link again.
 */
describeIfBrowser('console: an invitation by e-mail through the development mailbox (Chromium)', () => {
  const session = useConsole();

  it('invites, follows the e-mailed link, joins with the invited role; a resend carries the same link', async () => {
    const owner = await signupOwner(session.service.app, 'Difference Engines');
    const page = await session.open('/console/login');
    await logIn(page, owner.email, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invitations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invitations' }).waitFor();
    const invited = `grace.${Date.now()}@example.com`;
    await page.getByRole('textbox', { name: 'E-mail' }).fill(invited);
    await page.getByRole('combobox', { name: 'Role' }).selectOption('admin');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('region', { name: `Invitation for ${invited}` }).waitFor();

    await session.service.deliverMail();
    const mailbox = await session.open('/console/dev/mailbox');
    const subject = 'You are invited to join Difference Engines';
    const message = mailbox.getByRole('article', { name: `${subject}, to ${invited}` });
    const link = message.getByRole('link', { name: /\/console\/join\?token=[0-9a-f]{64}$/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${session.service.origin}/console/join\\?token=[0-9a-f]{64}$`));
    await expect(message.textContent()).resolves.toContain(`${owner.email} invited you (${invited}) to join Difference Engines as an admin.`);

    // Resend from the Invitations screen: a second message, with the same link.
    await page.getByRole('row', { name: new RegExp(`^${invited.replace(/\./g, '\\.')}`) }).getByRole('button', { name: 'Resend' }).click();
    await page.getByRole('status').filter({ hasText: /sent again/i }).first().waitFor();
    await session.service.deliverMail();
    await mailbox.reload();
    const copies = mailbox.getByRole('article', { name: `${subject}, to ${invited}` });
    await copies.nth(1).waitFor(); // the page reads the mailbox after it loads
    await expect(copies.count()).resolves.toBe(2);
    await expect(copies.nth(0).getByRole('link', { name: /\/console\/join\?token=/ }).getAttribute('href')).resolves.toBe(href);

    await copies.nth(1).getByRole('link', { name: /\/console\/join\?token=/ }).click();
    await mailbox.getByRole('heading', { level: 1, name: 'Join' }).waitFor();
    await mailbox.getByLabel('E-mail').fill(invited);
    await mailbox.getByLabel('Password').fill(PASSWORD);
    await mailbox.getByRole('button', { name: 'Join' }).click();
    const welcome = mailbox.getByRole('region', { name: 'You have joined Difference Engines' });
    await welcome.waitFor();
    await expect(welcome.getByRole('definition').nth(1).textContent()).resolves.toBe('admin');
  });
});
