import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole, renderSignedIn } from '../../../test/render-console';

const LINK_TOKEN = 'd'.repeat(64);

describe('Verify e-mail', () => {
  it('takes the token out of the address bar first, then verifies once and says so', async () => {
    let addressWhenSent = '';
    const { requests } = renderConsole(`/verify-email?token=${LINK_TOKEN}`, {
      'POST /api/v1/auth/email/verify': () => {
        addressWhenSent = window.location.href;
        return { status: 200, body: { verified: true } };
      },
    });
    expect(window.location.href).not.toContain(LINK_TOKEN);
    expect(await screen.findByText('Your e-mail address is verified. Thank you.')).toBeInTheDocument();
    expect(addressWhenSent).toMatch(/\/console\/verify-email$/);
    expect(requests).toEqual([expect.objectContaining({ method: 'POST', url: '/api/v1/auth/email/verify', body: { token: LINK_TOKEN } })]);
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });

  it('shows the API\'s refusal of a used or expired link', async () => {
    renderConsole(`/verify-email?token=${LINK_TOKEN}`, {
      'POST /api/v1/auth/email/verify': { status: 400, body: { error: 'Invalid or expired verification token' } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid or expired verification token$/);
    expect(screen.getByText(/once logged in, the console offers to send a new one/)).toBeInTheDocument();
  });

  it('without a token, sends nothing and says the page needs the e-mailed link', async () => {
    const { requests } = renderConsole('/verify-email', {});
    expect(await screen.findByRole('alert')).toHaveTextContent('This page needs the link from your e-mail');
    expect(requests).toEqual([]);
  });
});

describe('the banner of an unverified address', () => {
  const unverified = (verified: boolean | undefined) => ({
    'GET /api/v1/auth/account': {
      status: 200,
      body: {
        user_id: 'u-1', email: 'member@example.com', role: 'member', tenant_id: 't-1', tenant_name: 'Analytical Engines',
        ...(verified === undefined ? {} : { email_verified: verified }),
      },
    },
  });

  it('is on signed-in screens while the address is unverified, and sends a new link', async () => {
    const { user, requests } = await renderSignedIn('member', '/account', {
      ...unverified(false),
      'POST /api/v1/auth/email/verify/resend': { status: 202, body: {} },
    });
    const banner = screen.getByRole('region', { name: 'E-mail verification' });
    expect(banner).toHaveTextContent('Your e-mail address (member@example.com) is not verified yet');
    await user.click(screen.getByRole('button', { name: 'Resend the link' }));
    expect(await screen.findByText('Sent. Open the link in the message to verify your address.')).toBeInTheDocument();
    const sent = requests.find((r) => r.url === '/api/v1/auth/email/verify/resend');
    expect(sent).toMatchObject({ method: 'POST', authorization: expect.stringMatching(/^Bearer /) });
  });

  it('shows the API\'s 503 when the service sends no e-mail', async () => {
    const { user } = await renderSignedIn('member', '/account', {
      ...unverified(false),
      'POST /api/v1/auth/email/verify/resend': { status: 503, body: { error: 'E-mail delivery is not configured' } },
    });
    await user.click(screen.getByRole('button', { name: 'Resend the link' }));
    expect(await screen.findByText('E-mail delivery is not configured')).toBeInTheDocument();
  });

  it.each([['verified', true], ['not reported by the API', undefined]])('is absent when the address is %s', async (_name, verified) => {
    await renderSignedIn('member', '/account', unverified(verified));
    expect(screen.queryByRole('region', { name: 'E-mail verification' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resend the link' })).toBeNull();
  });

  it('goes once the address is verified from a link opened in this page', async () => {
    let verified = false;
    const { user } = await renderSignedIn('member', '/account', {
      'GET /api/v1/auth/account': () => unverifiedAnswer(verified),
      'POST /api/v1/auth/email/verify': () => {
        verified = true;
        return { status: 200, body: { verified: true } };
      },
    });
    expect(screen.getByRole('region', { name: 'E-mail verification' })).toBeInTheDocument();
    window.history.pushState(null, '', `/console/verify-email?token=${LINK_TOKEN}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(await screen.findByText('Your e-mail address is verified. Thank you.')).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Go to your account' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'E-mail verification' })).toBeNull());
    await user.click(screen.getByRole('link', { name: 'Go to your account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
  });

  function unverifiedAnswer(verified: boolean) {
    return unverified(verified)['GET /api/v1/auth/account'];
  }
});
