import { randomBytes } from 'node:crypto';
import { PASSWORD } from '../support/http-fixtures';
import { describeIfBrowser, logIn, useConsole } from '../support/browser';

const NEW_PASSWORD = 'a brand new passphrase';

/**
 * A forgotten password, end to end: the console asks for a link, the service's development mailbox
 * holds the message, the link opens the console's Reset password screen, and the new password works.
 */
describeIfBrowser('console: forgot and reset a password through the development mailbox (Chromium)', () => {
  const session = useConsole();

  it('signs up, forgets, follows the e-mailed link, sets a new password and logs in with it', async () => {
    const email = `ada.${randomBytes(3).toString('hex')}@example.com`;
    const page = await session.open('/console/signup');
    await page.getByLabel('Organisation name').fill('Analytical Engines');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(`If an account uses ${email}, we sent a link`);

    // main's worker polls the outbox; the test delivers it now instead of waiting for the next pass.
    await session.service.deliverMail();
    await page.goto(`${session.service.origin}/console/dev/mailbox`);
    const message = page.getByRole('article', { name: new RegExp(`^Reset your password for Analytical Engines, to ${email.replace(/\./g, '\\.')}$`) });
    const link = message.getByRole('link', { name: /\/console\/reset-password\?token=[0-9a-f]{64}$/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${session.service.origin}/console/reset-password\\?token=[0-9a-f]{64}$`));
    const token = href!.split('token=')[1]!;
    await link.click();

    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    // The token left the address bar as the screen opened: the address, and its history entry, hold none.
    expect(page.url()).toBe(`${session.service.origin}/console/reset-password`);
    await expect(page.evaluate(() => (globalThis as unknown as { location: { href: string } }).location.href)).resolves.not.toContain(token);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await expect(page.getByText(`${email} · owner`).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid credentials');
    await logIn(page, email, NEW_PASSWORD);
    await expect(page.getByText(`${email} · owner`).isVisible()).resolves.toBe(true);

    // The link worked once: opened again, the page takes the token and the API refuses it.
    await page.goto(href!);
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('Confirm new password').fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid or expired reset token');
    await expect(page.getByRole('link', { name: 'Ask for a new link' }).isVisible()).resolves.toBe(true);
  });
});
