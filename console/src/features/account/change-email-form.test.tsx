import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';

describe('Account: change e-mail address', () => {
  async function fill(user: Awaited<ReturnType<typeof renderSignedIn>>['user'], address: string, password: string) {
    const form = screen.getByRole('form', { name: 'Change e-mail address' });
    await user.type(within(form).getByLabelText('New e-mail address'), address);
    await user.type(within(form).getByLabelText('Your password'), password);
    await user.click(within(form).getByRole('button', { name: 'Send the confirmation link' }));
    return form;
  }

  it('sends the new address with the current password, then says to check the new inbox', async () => {
    const { user, requests, token } = await renderSignedIn('member', '/account', {
      'POST /api/v1/auth/email/change': { status: 202, body: {} },
    });
    const form = await fill(user, 'ada.new@example.com', 'correct horse battery');
    expect(await within(form).findByRole('status')).toHaveTextContent(/^Check your new inbox: we sent a link to ada\.new@example\.com\./);
    expect(requests.find((r) => r.url === '/api/v1/auth/email/change')).toMatchObject({
      method: 'POST', authorization: `Bearer ${token}`, body: { new_email: 'ada.new@example.com', current_password: 'correct horse battery' },
    });
    expect(within(form).getByLabelText('Your password')).toHaveValue('');
    // The address shown is still the current one: it changes only when the link is opened.
    expect(screen.getByText('member@example.com · member')).toBeInTheDocument();
  });

  it.each([
    [403, 'Current password is incorrect'],
    [409, 'Email already registered'],
    [503, 'E-mail delivery is not configured'],
  ])('shows the API\'s %i in its own words', async (status, error) => {
    const { user } = await renderSignedIn('member', '/account', { 'POST /api/v1/auth/email/change': { status, body: { error } } });
    const form = await fill(user, 'ada.new@example.com', 'whatever password');
    expect(await within(form).findByRole('alert')).toHaveTextContent(new RegExp(`^${error}$`));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Account');
  });

  it('checks the new address in the page before sending it', async () => {
    const { user, requests } = await renderSignedIn('member', '/account');
    const before = requests.length;
    const form = await fill(user, 'nowhere', 'whatever password');
    expect(within(form).getByLabelText('New e-mail address')).toHaveAccessibleDescription('Enter an e-mail address such as ada@example.com.');
    expect(requests.length).toBe(before);
  });

  it('asks for the password again when the API wants recent authentication, then sends the change once more', async () => {
    let confirmed = false;
    const { user, requests } = await renderSignedIn('member', '/account', {
      'POST /api/v1/auth/email/change': () => (confirmed
        ? { status: 202, body: {} }
        : { status: 403, body: { error: 'Recent authentication required' } }),
      'POST /api/v1/auth/reauthenticate': () => {
        confirmed = true;
        return { status: 200, body: { recent_until: '2026-11-26T06:00:00.000Z' } };
      },
    });
    const form = await fill(user, 'ada.new@example.com', 'correct horse battery');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(dialog).toHaveTextContent('Changing your e-mail address needs your password again');
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByRole('status')).toHaveTextContent(/^Check your new inbox: we sent a link to ada\.new@example\.com\./);
    expect(requests.filter((r) => r.url === '/api/v1/auth/email/change').map((r) => r.body)).toEqual([
      { new_email: 'ada.new@example.com', current_password: 'correct horse battery' },
      { new_email: 'ada.new@example.com', current_password: 'correct horse battery' },
    ]);
  });

  it('goes back to Log in when the password prompt meets a session that has ended', async () => {
    let ended = false;
    const refused = { status: 401, body: { error: 'Invalid or expired token' } };
    const { user } = await renderSignedIn('member', '/account', {
      'GET /api/v1/auth/me': () => (ended ? refused : { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role: 'member' } }),
      'POST /api/v1/auth/email/change': { status: 403, body: { error: 'Recent authentication required' } },
      'POST /api/v1/auth/reauthenticate': () => {
        ended = true;
        return refused;
      },
    });
    await fill(user, 'ada.new@example.com', 'correct horse battery');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByText('Your session has ended (Invalid or expired token). Log in again.')).toBeInTheDocument();
  });
});
