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

  it('names every field\'s problem beside it at once, and spends no sign-up on an empty form', async () => {
    const { user, requests } = renderConsole('/signup');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Organisation name')).toHaveAccessibleDescription('Enter a name for your organisation.');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter your e-mail address.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Choose a password. At least 8 characters.');
    for (const label of ['Organisation name', 'E-mail', 'Password']) expect(screen.getByLabelText(label)).toBeInvalid();
    expect(screen.getByRole('alert')).toHaveTextContent('Check the fields marked above.');
    expect(requests).toEqual([]);
  });

  it('checks the address and the password\'s length in the page, then clears what was put right', async () => {
    const { user, requests } = renderConsole('/signup');
    await user.type(screen.getByLabelText('Organisation name'), 'Analytical Engines');
    await user.type(screen.getByLabelText('E-mail'), 'ada.example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Organisation name')).not.toBeInvalid();
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter an e-mail address such as ada@example.com.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Use at least 8 characters. At least 8 characters.');
    expect(requests).toEqual([]);
  });

  it('shows the API\'s own per-field messages beside their fields', async () => {
    const { user } = renderConsole('/signup', {
      'POST /api/v1/auth/signup': {
        status: 400,
        body: { error: 'tenant_name must not contain control characters', details: [{ field: 'tenant_name', message: 'tenant_name must not contain control characters' }] },
      },
    });
    await user.type(screen.getByLabelText('Organisation name'), 'Acme');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('tenant_name must not contain control characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Organisation name')).toHaveAccessibleDescription('tenant_name must not contain control characters');
  });

  it('estimates the password\'s strength as it is typed, in a polite live region, and shows the API\'s policy refusal', async () => {
    const { user } = renderConsole('/signup', { 'POST /api/v1/auth/signup': { status: 400, body: { error: 'Password is too common' } } });
    const strength = () => screen.getByText(/^Password strength:/);
    expect(screen.queryByText(/^Password strength:/)).toBeNull();
    await user.type(screen.getByLabelText('Organisation name'), 'Analytical Engines');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    expect(strength()).toHaveTextContent('Password strength: Too short: use at least 8 characters.');
    expect(strength()).toHaveAttribute('aria-live', 'polite');
    await user.type(screen.getByLabelText('Password'), ' engines');
    expect(strength()).toHaveTextContent('Password strength: Weak: it contains the organisation\'s name, one of the first guesses.');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Password123!');
    expect(strength()).toHaveTextContent('Password strength: Weak: this looks like a common password, one of the first that is guessed.');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Password is too common$/);
  });
});
