import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';

const TOKEN = 'b'.repeat(64);

describe('Invitations', () => {
  it('invites, shows the link and token once with copy buttons, and lists pending invitations', async () => {
    let invites: object[] = [];
    const { user, requests } = await renderSignedIn('admin', '/invitations', {
      'GET /api/v1/auth/invites': () => ({ status: 200, body: { invites } }),
      'POST /api/v1/auth/invite': () => {
        invites = [{ id: 'i-1', email: 'grace@example.com', role: 'viewer', expires_at: '2026-02-07T12:00:00.000Z', created_at: '2026-01-31T12:00:00.000Z' }];
        return { status: 201, body: { invite_token: TOKEN, expires_at: '2026-02-07T12:00:00.000Z' } };
      },
    });
    expect(await screen.findByText('No invitation is waiting.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'grace@example.com');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'viewer');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const panel = await screen.findByRole('region', { name: 'Invitation for grace@example.com' });
    const link = `${window.location.origin}/console/join?token=${TOKEN}`;
    expect(within(panel).getByRole('textbox', { name: 'Invitation link' })).toHaveValue(link);
    expect(within(panel).getByRole('textbox', { name: 'Invitation token' })).toHaveValue(TOKEN);
    await user.click(within(panel).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(within(panel).getByText('Copied.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST' && r.url === '/api/v1/auth/invite')?.body).toEqual({ email: 'grace@example.com', role: 'viewer' });
    expect(await screen.findByRole('cell', { name: 'grace@example.com' })).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Invitation token' })).toBeNull();
  });

  it('revokes a pending invitation', async () => {
    const { user, requests } = await renderSignedIn('owner', '/invitations', {
      'GET /api/v1/auth/invites': { status: 200, body: { invites: [{ id: 'i-9', email: 'linus@example.com', role: 'member', expires_at: '2026-02-07T12:00:00.000Z', created_at: '2026-01-31T12:00:00.000Z' }] } },
      'DELETE /api/v1/auth/invites/i-9': { status: 200, body: { deleted: true } },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke invitation for linus@example.com' }));
    expect(await screen.findByText('The invitation for linus@example.com was revoked.')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE' && r.url === '/api/v1/auth/invites/i-9')).toBe(true);
  });

  it('sends a pending invitation again by e-mail, and says so', async () => {
    const { user, requests } = await renderSignedIn('admin', '/invitations', {
      'GET /api/v1/auth/invites': { status: 200, body: { invites: [{ id: 'i-7', email: 'ada@example.com', role: 'member', expires_at: '2026-02-07T12:00:00.000Z', created_at: '2026-01-31T12:00:00.000Z' }] } },
      'POST /api/v1/auth/invites/i-7/resend': { status: 202, body: {} },
    });
    await user.click(await screen.findByRole('button', { name: 'Resend invitation to ada@example.com' }));
    expect(await screen.findByText('The invitation for ada@example.com was sent again by e-mail, with the same link.')).toBeInTheDocument();
    expect(requests.filter((r) => r.url === '/api/v1/auth/invites/i-7/resend')).toEqual([expect.objectContaining({ method: 'POST' })]);
  });

  it('shows the API\'s refusal to send an invitation again', async () => {
    const { user } = await renderSignedIn('owner', '/invitations', {
      'GET /api/v1/auth/invites': { status: 200, body: { invites: [{ id: 'i-8', email: 'ada@example.com', role: 'member', expires_at: '2026-02-07T12:00:00.000Z', created_at: '2026-01-31T12:00:00.000Z' }] } },
      'POST /api/v1/auth/invites/i-8/resend': { status: 503, body: { error: 'E-mail delivery is not configured' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Resend invitation to ada@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^E-mail delivery is not configured$/);
  });

  it('returns to Log in with a note when the API says the token no longer works', async () => {
    await renderSignedIn('owner', '/invitations', {
      'GET /api/v1/auth/invites': { status: 401, body: { error: 'Invalid or expired token' } },
    });
    expect(await screen.findByText('Your session has ended (Invalid or expired token). Log in again.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    expect(window.location.pathname).toBe('/console/login');
  });
});
