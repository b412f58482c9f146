import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

const INVITE = 'a'.repeat(64);

describe('Join', () => {
  it('takes the token from the link, joins, and then shows the organisation and role the invitation gave', async () => {
    const { user, requests } = renderConsole(`/join?token=${INVITE}`, {
      'POST /api/v1/auth/signup': { status: 201, body: { token: tokenFor({ email: 'grace@example.com', role: 'member' }), tenant_id: 't-1', expires_in: '24h' } },
      'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-2', role: 'member' } },
      'GET /api/v1/auth/account': {
        status: 200, body: { user_id: 'u-2', email: 'grace@example.com', role: 'member', tenant_id: 't-1', tenant_name: 'Analytical Engines' },
      },
    });
    expect(screen.getByLabelText('Invitation token')).toHaveValue(INVITE);
    expect(screen.getByText(/organisation's name and your role are shown once you have joined/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    const welcome = await screen.findByRole('region', { name: 'You have joined Analytical Engines' });
    expect(within(welcome).getAllByRole('definition').map((cell) => cell.textContent)).toEqual(['Analytical Engines', 'member', 'grace@example.com']);
    expect(requests[0]?.body).toEqual({ invite_token: INVITE, email: 'grace@example.com', password: 'correct horse battery' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Account', 'Sessions', 'Security']);
    await user.click(within(welcome).getByRole('link', { name: 'Go to your account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
  });

  it('shows the API\'s refusal of an expired invitation', async () => {
    const { user } = renderConsole(`/join?token=${INVITE}`, { 'POST /api/v1/auth/signup': { status: 400, body: { error: 'Invite expired' } } });
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invite expired$/);
  });

  it('explains why an address that already has an account cannot accept the invitation', async () => {
    const { user } = renderConsole(`/join?token=${INVITE}`, { 'POST /api/v1/auth/signup': { status: 409, body: { error: 'Email already registered' } } });
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/already has an account/);
    expect(alert).toHaveTextContent(/one organisation only, so this invitation cannot be accepted with it/);
    expect(alert).toHaveTextContent(/Log in with that address instead/);
  });

  it('names every missing field beside it and sends nothing', async () => {
    const { user, requests } = renderConsole('/join');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(screen.getByLabelText('Invitation token')).toHaveAccessibleDescription('Paste the token from your invitation link.');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter your e-mail address.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Choose a password. At least 8 characters.');
    expect(requests).toEqual([]);
  });
});
