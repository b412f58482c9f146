import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderConsole } from '../../../test/render-console';

const browser = vi.hoisted(() => ({ leaveFor: vi.fn(), openInNewTab: vi.fn() }));
vi.mock('../../shared/leave-console', () => browser);

const PROVIDER = 'https://idp.example.com/authorize?client_id=portcullis&state=s&code_challenge=c';

describe('Log in: Sign in with SSO', () => {
  beforeEach(() => browser.leaveFor.mockReset());

  it('asks for the address first (kept from Log in\'s field), asks the service where to go, and leaves for the provider', async () => {
    const { user, requests } = renderConsole('/login', {
      'GET /api/v1/auth/sso/start': { status: 200, body: { redirect_url: PROVIDER } },
    });
    await user.type(screen.getByLabelText('E-mail'), 'ada@engines.example');
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }));
    const address = screen.getByLabelText('Work e-mail');
    expect(address).toHaveFocus();
    expect(address).toHaveValue('ada@engines.example');
    expect(requests).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(browser.leaveFor).toHaveBeenCalledWith(PROVIDER));
    expect(requests).toEqual([expect.objectContaining({
      method: 'GET', url: '/api/v1/auth/sso/start?email=ada%40engines.example', accept: 'application/json', authorization: null,
    })]);
  });

  it('shows the service\'s refusal of an address without single sign-on in the page, and stays', async () => {
    const { user } = renderConsole('/login', {
      'GET /api/v1/auth/sso/start': { status: 404, body: { error: 'No single sign-on for this address' } },
    });
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }));
    await user.type(screen.getByLabelText('Work e-mail'), 'grace@elsewhere.example');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^No single sign-on for this address$/);
    expect(browser.leaveFor).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Work e-mail')).toHaveValue('grace@elsewhere.example');
  });

  it('returns to the password form on Cancel', async () => {
    const { user } = renderConsole('/login');
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Work e-mail')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in with SSO' })).toBeInTheDocument();
  });
});
