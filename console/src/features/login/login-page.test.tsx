import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderConsole, renderSignedIn } from '../../../test/render-console';

describe('Log in', () => {
  it('sends the typed credentials, keeps the token for later calls, and opens Members for an owner', async () => {
    const { requests, token } = await renderSignedIn('owner', '/login', {
      'GET /api/v1/auth/members': { status: 200, body: { members: [] } },
    });
    expect(requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/auth/login', body: { email: 'owner@example.com', password: 'correct horse battery' } });
    expect(requests[1]).toMatchObject({ method: 'GET', url: '/api/v1/auth/me', authorization: `Bearer ${token}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'Members' })).toHaveFocus();
    expect(window.location.pathname).toBe('/console/members');
  });

  it('shows the API\'s refusal and stays on Log in', async () => {
    const { user } = renderConsole('/login', { 'POST /api/v1/auth/login': { status: 401, body: { error: 'Invalid credentials' } } });
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid credentials$/);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
  });

  it('after a 429 says once when to try again, from Retry-After', async () => {
    const { user } = renderConsole('/login', {
      'POST /api/v1/auth/login': { status: 429, body: { error: 'Too many requests, retry after 42 seconds' }, headers: { 'Retry-After': '42' } },
    });
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Too many requests\. Try again in 42 seconds \(at .+\)\.$/);
  });

  it('says so when the service cannot be reached', async () => {
    const { user } = renderConsole('/login', {});
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The service cannot be reached. Check your connection and try again.');
  });
});
