import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor, type FakeAnswer } from '../../../test/fake-api';

const CODE = 'c0de'.repeat(16);
const token = tokenFor({ email: 'ada@engines.example', role: 'member' });
const signedIn = {
  'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role: 'member' } },
  'GET /api/v1/auth/account': { status: 200, body: { user_id: 'u-1', email: 'ada@engines.example', role: 'member', tenant_id: 't-1', tenant_name: 'Analytical Engines' } },
  'GET /api/v1/auth/sessions': { status: 200, body: { sessions: [] } },
};

describe('Single sign-on: back from the provider (/console/sso-callback)', () => {
  // ASVS 5.0 V14.2.1: no session token travels in an address; the one-time code leaves the address bar first.
  it('V14.2.1 takes the code out of the address bar before exchanging it by POST, then starts the session as Log in does', async () => {
    const addressAtExchange: string[] = [];
    const { requests } = renderConsole(`/sso-callback?code=${CODE}`, {
      'POST /api/v1/auth/sso/exchange': (): FakeAnswer => {
        addressAtExchange.push(window.location.href);
        return { status: 200, body: { token, expires_in: '24h' } };
      },
      ...signedIn,
    });
    expect(window.location.search).toBe('');
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toHaveFocus();
    expect(addressAtExchange).toEqual(['http://localhost:3000/console/sso-callback']);
    expect(requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/auth/sso/exchange', body: { code: CODE }, authorization: null });
    expect(requests.filter((r) => r.url === '/api/v1/auth/sso/exchange')).toHaveLength(1);
    expect(requests.find((r) => r.url === '/api/v1/auth/me')?.authorization).toBe(`Bearer ${token}`);
    expect(screen.getByRole('banner')).toHaveTextContent('ada@engines.example · member');
  });

  // ASVS 5.0 V6.3.3: a tenant that requires a second factor asks for its own when the provider did not prove one.
  it('V6.3.3 continues to the second step when the organisation asks for its own second factor', async () => {
    const { user, requests } = renderConsole(`/sso-callback?code=${CODE}`, {
      'POST /api/v1/auth/sso/exchange': { status: 401, body: { error: 'Second factor required', mfa_token: 'mfa-sso', methods: ['totp', 'recovery_code'] } },
      'POST /api/v1/auth/login/mfa': { status: 200, body: { token, expires_in: '24h' } },
      ...signedIn,
    });
    expect(await screen.findByText('Your identity provider signed you in. Enter the six-digit code your authenticator app shows now.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Code from your authenticator app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { level: 1, name: 'Account' });
    expect(requests.find((r) => r.url === '/api/v1/auth/login/mfa')?.body).toEqual({ mfa_token: 'mfa-sso', code: '123456' });
  });

  it('shows the service\'s refusal of a spent or expired code, with the way back to Log in', async () => {
    const { user } = renderConsole(`/sso-callback?code=${CODE}`, {
      'POST /api/v1/auth/sso/exchange': { status: 401, body: { error: 'Invalid or expired code' } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid or expired code$/);
    expect(window.location.search).toBe('');
    await user.click(screen.getByRole('link', { name: 'Back to Log in' }));
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
  });

  it('shows the refusal the service sent back from the provider, and exchanges nothing', async () => {
    const { requests } = renderConsole(`/sso-callback?error=${encodeURIComponent('This address belongs to another tenant')}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^This address belongs to another tenant$/);
    expect(requests).toEqual([]);
  });
});
