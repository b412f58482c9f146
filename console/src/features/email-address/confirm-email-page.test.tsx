import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../../test/render-console';
import { tokenFor } from '../../../test/fake-api';

const LINK_TOKEN = 'e'.repeat(64);

function answersFor(email: string, role: string) {
  return {
    'GET /api/v1/auth/me': { status: 200, body: { tenant_id: 't-1', user_id: 'u-1', role } },
    'GET /api/v1/auth/account': { status: 200, body: { user_id: 'u-1', email, role, tenant_id: 't-1', tenant_name: 'Analytical Engines' } },
  };
}

describe('Confirm new address', () => {
  it('takes the token out of the address bar first, confirms, and keeps the new session it is given', async () => {
    const session = tokenFor({ email: 'ada.new@example.com', role: 'member' });
    let addressWhenSent = '';
    const { requests } = renderConsole(`/confirm-email?token=${LINK_TOKEN}`, {
      'POST /api/v1/auth/email/change/confirm': () => {
        addressWhenSent = window.location.href;
        return { status: 200, body: { token: session, expires_in: '24h' } };
      },
      ...answersFor('ada.new@example.com', 'member'),
    });
    expect(window.location.href).not.toContain(LINK_TOKEN);
    expect(await screen.findByText(/Your address is now ada\.new@example\.com: log in with it from now on/)).toBeInTheDocument();
    expect(addressWhenSent).toMatch(/\/console\/confirm-email$/);
    expect(requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/auth/email/change/confirm', body: { token: LINK_TOKEN } });
    expect(requests[1]).toMatchObject({ method: 'GET', url: '/api/v1/auth/me', authorization: `Bearer ${session}` });
    expect(screen.getByText('ada.new@example.com · member')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Go to your account' })).toBeInTheDocument();
  });

  it('shows the API\'s refusal of a used or expired link', async () => {
    renderConsole(`/confirm-email?token=${LINK_TOKEN}`, {
      'POST /api/v1/auth/email/change/confirm': { status: 400, body: { error: 'Invalid or expired confirmation token' } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid or expired confirmation token$/);
    expect(screen.getByText(/ask for the change again from your account/)).toBeInTheDocument();
  });
});
