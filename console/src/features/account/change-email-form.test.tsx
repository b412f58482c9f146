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
});
