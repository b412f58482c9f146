import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole, renderSignedIn } from '../../../test/render-console';
import { tokenFor, type FakeRequest } from '../../../test/fake-api';

const without = [
  { id: 'u-2', email: 'grace@example.com', role: 'admin' },
  { id: 'u-3', email: 'linus@example.com', role: 'viewer' },
];

async function openPolicy(routes: Parameters<typeof renderSignedIn>[2]) {
  const rendered = await renderSignedIn('owner', '/members', { 'GET /api/v1/auth/members': { status: 200, body: { members: [] } }, ...routes });
  await rendered.user.click(screen.getByRole('link', { name: 'Sign-in policy' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Sign-in policy' })).toHaveFocus();
  return rendered;
}

describe('Sign-in policy (owners)', () => {
  // ASVS 5.0 V6.3.3: an organisation can require a second factor of every member.
  it('lists the members without a factor before switching to required, then saves after the password is proved again', async () => {
    let policy: 'optional' | 'required' = 'optional';
    let patches = 0;
    const { user, requests } = await openPolicy({
      'GET /api/v1/auth/tenant/security': () => ({ status: 200, body: { mfa: policy, members_without_factor: without } }),
      'PATCH /api/v1/auth/tenant/security': (request: FakeRequest) => {
        if (patches++ === 0) return { status: 403, body: { error: 'Recent authentication required' } };
        policy = (request.body as { mfa: 'optional' | 'required' }).mfa;
        return { status: 200, body: { mfa: policy, members_without_factor: without } };
      },
      'POST /api/v1/auth/reauthenticate': { status: 200, body: { reauthenticated: true } },
    });
    const table = await screen.findByRole('table', { name: 'Members without a second factor (2)' });
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['grace@example.comadmin', 'linus@example.comviewer']);
    expect(screen.getByRole('radio', { name: /Optional/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(screen.getByRole('radio', { name: /Required of every member/ }));
    expect(screen.getByText(/2 members have no second factor yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('A second factor is now required: members without one may only set one up until they do.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ mfa: 'required' }, { mfa: 'required' }]);
    expect(await screen.findByRole('radio', { name: /Required of every member/ })).toBeChecked();
  });

  it('is in the navigation of owners only, and refused in words to an admin at its address', async () => {
    await renderSignedIn('admin', '/members', { 'GET /api/v1/auth/members': { status: 200, body: { members: [] } } });
    expect(screen.queryByRole('link', { name: 'Sign-in policy' })).toBeNull();
    window.history.pushState(null, '', '/console/sign-in-policy');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Requires owner role or higher$/);
  });
});

describe('Enrolment only (the organisation requires a second factor the person lacks)', () => {
  const enrollmentRequired = { status: 403, body: { error: 'Second factor enrollment required' } };
  const token = tokenFor({ email: 'grace@example.com', role: 'admin' });

  it('sends the person to Security at sign-in, says why, opens only Account and Security, and asks for a new log-in once a factor is set up', async () => {
    let enrolled = false;
    const { user, requests } = renderConsole('/login', {
      'POST /api/v1/auth/login': { status: 200, body: { token, expires_in: '24h' } },
      'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-2', role: 'admin' } },
      'GET /api/v1/auth/account': { status: 200, body: { user_id: 'u-2', email: 'grace@example.com', role: 'admin', tenant_id: 't-1', tenant_name: 'Analytical Engines' } },
      'GET /api/v1/auth/sessions': enrollmentRequired,
      'GET /api/v1/auth/members': enrollmentRequired,
      'GET /api/v1/auth/mfa': () => ({ status: 200, body: { totp: enrolled ? { enrolled_at: '2026-11-26T09:00:00.000Z' } : null, recovery_codes: { remaining: enrolled ? 10 : 0 } } }),
      'GET /api/v1/auth/mfa/passkeys': { status: 200, body: { passkeys: [] } },
      'POST /api/v1/auth/mfa/totp': { status: 200, body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' } },
      'POST /api/v1/auth/mfa/totp/confirm': () => {
        enrolled = true;
        return { status: 200, body: { recovery_codes: Array.from({ length: 10 }, (_, i) => `code-${i}`) } };
      },
      'POST /api/v1/auth/logout': { status: 204, body: null },
    });
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toHaveFocus();
    expect(screen.getByText(/Your organisation requires a second factor\./)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Account', 'Security']);
    expect(requests.some((r) => r.url === '/api/v1/auth/members')).toBe(false);

    // Any other screen's address leads back here.
    window.history.pushState(null, '', '/console/members');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await screen.findByRole('heading', { level: 1, name: 'Security' });

    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    await user.type(await screen.findByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await user.click(within(await screen.findByRole('region', { name: 'Your recovery codes' })).getByRole('button', { name: 'Done' }));
    await user.click(await screen.findByRole('button', { name: 'Log in again' }));
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(requests.some((r) => r.url === '/api/v1/auth/logout')).toBe(true);
  });

  it('goes to Security when any call is refused for want of a factor later in the session', async () => {
    const { user } = await renderSignedIn('member', '/account', {
      'GET /api/v1/auth/sessions': (() => {
        let calls = 0;
        return () => (calls++ === 0 ? { status: 200, body: { sessions: [] } } : enrollmentRequired);
      })(),
      'GET /api/v1/auth/mfa': { status: 200, body: { totp: null, recovery_codes: { remaining: 0 } } },
      'GET /api/v1/auth/mfa/passkeys': { status: 200, body: { passkeys: [] } },
    });
    await user.click(screen.getByRole('link', { name: 'Sessions' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
    expect(screen.getByText(/Your organisation requires a second factor\./)).toBeInTheDocument();
  });
});
