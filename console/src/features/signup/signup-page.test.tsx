import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

describe('Sign up', () => {
  it('creates the organisation with the typed name and opens Members as its owner', async () => {
    const token = tokenFor({ email: 'ada@example.com', role: 'owner' });
    const { user, requests } = renderConsole('/signup', {
      'POST /api/v1/auth/signup': { status: 201, body: { token, tenant_id: 't-1', expires_in: '24h' } },
      'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role: 'owner' } },
      'GET /api/v1/auth/members': { status: 200, body: { members: [{ user_id: 'u-1', email: 'ada@example.com', role: 'owner', created_at: '2026-01-31T12:00:00.000Z' }] } },
    });
    await user.type(screen.getByLabelText('Organisation name'), 'Analytical Engines');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('cell', { name: 'ada@example.com (you)' })).toBeInTheDocument();
    expect(requests[0]?.body).toEqual({ tenant_name: 'Analytical Engines', email: 'ada@example.com', password: 'correct horse battery' });
  });

  it('shows the API\'s refusal of a registered e-mail', async () => {
    const { user } = renderConsole('/signup', { 'POST /api/v1/auth/signup': { status: 409, body: { error: 'Email already registered' } } });
    await user.type(screen.getByLabelText('Organisation name'), 'Again');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Email already registered$/);
  });
});
