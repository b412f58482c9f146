import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

const INVITE = 'a'.repeat(64);

describe('Join', () => {
  it('takes the token from the link and joins as the invite\'s role, which sees only Account', async () => {
    const { user, requests } = renderConsole(`/join?token=${INVITE}`, {
      'POST /api/v1/auth/signup': { status: 201, body: { token: tokenFor({ email: 'grace@example.com', role: 'member' }), tenant_id: 't-1', expires_in: '24h' } },
      'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-2', role: 'member' } },
    });
    expect(screen.getByLabelText('Invitation token')).toHaveValue(INVITE);
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ invite_token: INVITE, email: 'grace@example.com', password: 'correct horse battery' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Account']);
  });

  it('shows the API\'s refusal of an expired invitation', async () => {
    const { user } = renderConsole(`/join?token=${INVITE}`, { 'POST /api/v1/auth/signup': { status: 400, body: { error: 'Invite expired' } } });
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invite expired$/);
  });
});
