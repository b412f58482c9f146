import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';

describe('Forgot password', () => {
  it('is linked from Log in, sends the address and answers with the same neutral words whatever happened', async () => {
    const { user, requests } = renderConsole('/login', { 'POST /api/v1/auth/password/forgot': { status: 202, body: {} } });
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' })).toHaveFocus();
    expect(window.location.pathname).toBe('/console/forgot-password');
    await user.type(screen.getByLabelText('E-mail'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('If an account uses ada@example.com, we sent a link to it');
    expect(requests).toEqual([expect.objectContaining({ method: 'POST', url: '/api/v1/auth/password/forgot', body: { email: 'ada@example.com' } })]);
    await user.click(screen.getByRole('link', { name: 'Back to Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
  });

  it('shows the API\'s 503 when the service sends no e-mail, and stays on the form', async () => {
    const { user } = renderConsole('/forgot-password', {
      'POST /api/v1/auth/password/forgot': { status: 503, body: { error: 'E-mail delivery is not configured' } },
    });
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^E-mail delivery is not configured$/);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Forgot your password?');
  });

  it('checks the address in the page first, spending none of the few requests a minute the API allows', async () => {
    const { user, requests } = renderConsole('/forgot-password', {});
    await user.type(screen.getByLabelText('E-mail'), 'not an address');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter an e-mail address such as ada@example.com.');
    expect(screen.getByLabelText('E-mail')).toBeInvalid();
    expect(requests).toEqual([]);
  });

  it('is not in the navigation bar', () => {
    renderConsole('/forgot-password', {});
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveTextContent(/Forgot|Reset|Verify|mailbox/);
  });
});
