import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

const LINK_TOKEN = 'c'.repeat(64);

function signInAnswers(role: string) {
  return {
    'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role } },
    'GET /api/v1/auth/account': {
      status: 200, body: { user_id: 'u-1', email: 'ada@example.com', role, tenant_id: 't-1', tenant_name: 'Analytical Engines' },
    },
  };
}

describe('Reset password', () => {
  // Out of the history, bookmarks and Referer: the token is a credential (ASVS V14.2.1 keeps such things out of URLs).
  it('takes the token out of the address bar at once, before any request', () => {
    renderConsole(`/reset-password?token=${LINK_TOKEN}`, {});
    expect(window.location.href).not.toContain(LINK_TOKEN);
    expect(window.location.pathname + window.location.search).toBe('/console/reset-password');
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
  });

  it('sets the new password with the link\'s token, signs in as Log in does and opens the landing screen', async () => {
    const session = tokenFor({ email: 'ada@example.com', role: 'member' });
    let addressWhenSent = '';
    const { user, requests } = renderConsole(`/reset-password?token=${LINK_TOKEN}`, {
      'POST /api/v1/auth/password/reset': () => {
        addressWhenSent = window.location.href;
        return { status: 200, body: { token: session, expires_in: '24h' } };
      },
      ...signInAnswers('member'),
    });
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/console/account');
    expect(requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/auth/password/reset', body: { token: LINK_TOKEN, password: 'a brand new passphrase' } });
    expect(requests[1]).toMatchObject({ method: 'GET', url: '/api/v1/auth/me', authorization: `Bearer ${session}` });
    expect(screen.getByText('ada@example.com · member')).toBeInTheDocument();
    expect(addressWhenSent).toMatch(/\/console\/reset-password$/);
  });

  it('shows the API\'s refusal of a used or expired link, with a way to ask for a new one', async () => {
    const { user } = renderConsole(`/reset-password?token=${LINK_TOKEN}`, {
      'POST /api/v1/auth/password/reset': { status: 400, body: { error: 'Invalid or expired reset token' } },
    });
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid or expired reset token$/);
    await user.click(screen.getByRole('link', { name: 'Ask for a new link' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('checks the password and its confirmation in the page before sending anything', async () => {
    const { user, requests } = renderConsole(`/reset-password?token=${LINK_TOKEN}`, {});
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('Use at least 8 characters. At least 8 characters.');
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new passphrase!');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('The two passwords differ: type the same one twice.');
    expect(screen.getByLabelText('Confirm new password')).toBeInvalid();
    expect(requests).toEqual([]);
  });

  it('without a token, says the page needs the e-mailed link', () => {
    renderConsole('/reset-password', {});
    expect(screen.getByRole('alert')).toHaveTextContent('This page needs the link from your e-mail');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeInTheDocument();
  });
});
