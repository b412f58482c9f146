import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

describe('Account', () => {
  it('shows who you are, changes the password and uses the fresh token from then on', async () => {
    const fresh = tokenFor({ email: 'viewer@example.com', role: 'viewer' }).replace('signature', 'fresh');
    const { user, requests } = await renderSignedIn('viewer', '/account', {
      'POST /api/v1/auth/password': { status: 200, body: { token: fresh, expires_in: '24h' } },
    });
    const facts = screen.getAllByRole('definition').map((dd) => dd.textContent);
    expect(facts).toEqual(['viewer@example.com', 'viewer', 'Analytical Engines', 't-1', 'u-1']);
    await user.type(screen.getByLabelText('Current password'), 'correct horse battery');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/^Your password was changed\./)).toBeInTheDocument();
    expect(requests.at(-1)?.body).toEqual({ current_password: 'correct horse battery', new_password: 'a brand new passphrase' });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(requests.at(-1)?.authorization).toBe(`Bearer ${fresh}`);
  });

  it('shows the API\'s refusal of a wrong current password', async () => {
    const { user } = await renderSignedIn('member', '/account', {
      'POST /api/v1/auth/password': { status: 403, body: { error: 'Current password is incorrect' } },
    });
    await user.type(screen.getByLabelText('Current password'), 'wrong password');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Current password is incorrect$/);
  });

  it('signs out from the header: back to Log in with a note, and no screen of the signed-in person', async () => {
    const { user } = await renderSignedIn('owner', '/account');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('You have signed out.')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Log in', 'Sign up', 'Join']);
  });

  it('estimates the new password\'s strength as it is typed, with the person\'s address and organisation in mind', async () => {
    const { user } = await renderSignedIn('member', '/account');
    await user.type(screen.getByLabelText('New password'), 'member of the team');
    expect(screen.getByText(/^Password strength:/)).toHaveTextContent('Password strength: Weak: it contains your e-mail address, which others can see.');
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'plum tree orchard at noon');
    expect(screen.getByText(/^Password strength:/)).toHaveTextContent(/^Password strength: Strong\.$/);
    expect(screen.getByText(/^Password strength:/)).toHaveAttribute('aria-live', 'polite');
  });
});
