import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', async (original) => ({ ...(await original<object>()), ...webauthn }));

const token = tokenFor({ email: 'ada@example.com', role: 'member' });
const signedIn = {
  'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role: 'member' } },
  'GET /api/v1/auth/account': { status: 200, body: { user_id: 'u-1', email: 'ada@example.com', role: 'member', tenant_id: 't-1', tenant_name: 'Analytical Engines' } },
};
const secondFactorRequired = {
  status: 401,
  body: { error: 'Second factor required', mfa_token: 'mfa-token-1', methods: ['totp', 'recovery_code'] },
};

describe('Log in with a second factor', () => {
  beforeEach(() => {
    webauthn.startAuthentication.mockReset();
  });

  async function password(user: ReturnType<typeof renderConsole>['user']) {
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
  }

  // ASVS 5.0 V6.3.3: the password alone does not sign in a member with a second factor.
  it('asks for the app\'s code after "Second factor required", and signs in with the mfa_token and the code', async () => {
    const { user, requests } = renderConsole('/login', {
      'POST /api/v1/auth/login': secondFactorRequired,
      'POST /api/v1/auth/login/mfa': { status: 200, body: { token, expires_in: '24h' } },
      ...signedIn,
    });
    await password(user);
    const code = await screen.findByLabelText('Code from your authenticator app');
    expect(code).toHaveFocus();
    expect(screen.queryByLabelText('Password')).toBeNull();
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toHaveFocus();
    expect(requests.find((r) => r.url === '/api/v1/auth/login/mfa')?.body).toEqual({ mfa_token: 'mfa-token-1', code: '123456' });
    expect(requests.find((r) => r.url === '/api/v1/auth/me')?.authorization).toBe(`Bearer ${token}`);
  });

  it('shows "Invalid second factor" and leaves the step open; a recovery code then signs in', async () => {
    const { user, requests } = renderConsole('/login', {
      'POST /api/v1/auth/login': secondFactorRequired,
      'POST /api/v1/auth/login/mfa': (request) => ((request.body as { recovery_code?: string }).recovery_code
        ? { status: 200, body: { token, expires_in: '24h' } }
        : { status: 401, body: { error: 'Invalid second factor' } }),
      ...signedIn,
    });
    await password(user);
    await user.type(await screen.findByLabelText('Code from your authenticator app'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid second factor$/);
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText('Recovery code'), ' abcd-efgh-ijkl-mnop-qrst-uvwx ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { level: 1, name: 'Account' });
    expect(requests.filter((r) => r.url === '/api/v1/auth/login/mfa').map((r) => r.body)).toEqual([
      { mfa_token: 'mfa-token-1', code: '000000' },
      { mfa_token: 'mfa-token-1', recovery_code: 'abcd-efgh-ijkl-mnop-qrst-uvwx' },
    ]);
  });

  it('offers only the recovery code to a member without an authenticator app, and "Start again" returns to the password', async () => {
    const { user } = renderConsole('/login', {
      'POST /api/v1/auth/login': { status: 401, body: { error: 'Second factor required', mfa_token: 't', methods: ['recovery_code', 'passkey'] } },
    });
    await password(user);
    await screen.findByLabelText('Recovery code');
    expect(screen.queryByRole('button', { name: 'Use your authenticator app instead' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('offers a passkey when the member has one: the options for this sign-in to the browser, its assertion with the mfa_token', async () => {
    const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: { signature: 's' } };
    webauthn.startAuthentication.mockResolvedValue(assertion);
    const { user, requests } = renderConsole('/login', {
      'POST /api/v1/auth/login': { status: 401, body: { error: 'Second factor required', mfa_token: 'mfa-token-2', methods: ['recovery_code', 'passkey'] } },
      'POST /api/v1/auth/login/mfa/passkey/options': { status: 200, body: { challenge: 'ch-2', allowCredentials: [] } },
      'POST /api/v1/auth/login/mfa': { status: 200, body: { token, expires_in: '24h' } },
      ...signedIn,
    });
    await password(user);
    await user.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    await screen.findByRole('heading', { level: 1, name: 'Account' });
    expect(requests.find((r) => r.url === '/api/v1/auth/login/mfa/passkey/options')?.body).toEqual({ mfa_token: 'mfa-token-2' });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'ch-2', allowCredentials: [] } });
    expect(requests.find((r) => r.url === '/api/v1/auth/login/mfa')?.body).toEqual({ mfa_token: 'mfa-token-2', passkey: assertion });
  });

  it('keeps "Invalid credentials" a plain refusal', async () => {
    const { user } = renderConsole('/login', { 'POST /api/v1/auth/login': { status: 401, body: { error: 'Invalid credentials' } } });
    await password(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid credentials$/);
    expect(screen.queryByRole('heading', { name: 'Second factor' })).toBeNull();
  });
});

describe('Sign in with a passkey', () => {
  it('passes the ceremony\'s options to the browser and sends its assertion with the ceremony', async () => {
    const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'x' } };
    webauthn.startAuthentication.mockResolvedValue(assertion);
    const ceremony = 'a'.repeat(64);
    const { user, requests } = renderConsole('/login', {
      'POST /api/v1/auth/login/passkey/options': { status: 200, body: { ceremony, options: { challenge: 'challenge-1', rpId: 'console.test' } } },
      'POST /api/v1/auth/login/passkey': { status: 200, body: { token, expires_in: '24h' } },
      ...signedIn,
    });
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await screen.findByRole('heading', { level: 1, name: 'Account' });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'challenge-1', rpId: 'console.test' } });
    expect(requests.find((r) => r.url === '/api/v1/auth/login/passkey')?.body).toEqual({ ceremony, response: assertion });
  });

  it('says so when the person cancels the browser\'s prompt, and sends nothing', async () => {
    webauthn.startAuthentication.mockRejectedValue(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
    const { user, requests } = renderConsole('/login', {
      'POST /api/v1/auth/login/passkey/options': { status: 200, body: { ceremony: 'b'.repeat(64), options: { challenge: 'c' } } },
    });
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The passkey was not used: the request was cancelled or timed out\.$/);
    expect(requests.map((r) => r.url)).toEqual(['/api/v1/auth/login/passkey/options']);
  });

  it('shows the API\'s "Invalid passkey"', async () => {
    webauthn.startAuthentication.mockResolvedValue({ id: 'x' });
    const { user } = renderConsole('/login', {
      'POST /api/v1/auth/login/passkey/options': { status: 200, body: { ceremony: 'b'.repeat(64), options: { challenge: 'c' } } },
      'POST /api/v1/auth/login/passkey': { status: 401, body: { error: 'Invalid passkey' } },
    });
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid passkey$/);
  });
});
