import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';

const KEY = `pcls_${'c'.repeat(32)}`;
const summary = {
  id: 'k-1', prefix: KEY.slice(0, 13), name: 'ci-deploy', created_by: 'u-1', created_at: '2026-01-31T12:00:00.000Z',
  last_used_at: null, expires_at: '2099-03-02T12:00:00.000Z', revoked: false,
};

describe('API keys', () => {
  it('creates a key with a name and expiry, shows it once with a warning, and lists it with its creator', async () => {
    let keys: object[] = [];
    const { user, requests } = await renderSignedIn('owner', '/api-keys', {
      'GET /api/v1/auth/api-keys': () => ({ status: 200, body: { api_keys: keys } }),
      'GET /api/v1/auth/members': { status: 200, body: { members: [{ user_id: 'u-1', email: 'owner@example.com', role: 'owner', created_at: '2026-01-31T12:00:00.000Z' }] } },
      'POST /api/v1/auth/api-keys': () => {
        keys = [summary];
        return { status: 201, body: { api_key: KEY, prefix: summary.prefix, id: 'k-1', name: 'ci-deploy', expires_at: summary.expires_at } };
      },
    });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'ci-deploy');
    await user.type(screen.getByRole('spinbutton', { name: 'Expires in (days)' }), '30');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const panel = await screen.findByRole('region', { name: 'New key ci-deploy' });
    expect(within(panel).getByRole('textbox', { name: 'New API key' })).toHaveValue(KEY);
    expect(within(panel).getByText('Copy this key now: you will not see it again.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe(KEY);
    expect(requests.find((r) => r.method === 'POST' && r.url === '/api/v1/auth/api-keys')?.body).toEqual({ name: 'ci-deploy', expires_in_days: 30 });

    const row = (await screen.findByRole('cell', { name: summary.prefix })).closest('tr')!;
    const cells = within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells.slice(0, 3)).toEqual([summary.prefix, 'ci-deploy', 'owner@example.com']);
    expect(cells.slice(4, 7)).toEqual(['Never', expect.stringMatching(/2099/), 'Active']);
  });

  it('sends no body fields when name and expiry are left empty, and shows revoked keys without a button', async () => {
    const { user, requests } = await renderSignedIn('admin', '/api-keys', {
      'GET /api/v1/auth/api-keys': { status: 200, body: { api_keys: [{ ...summary, revoked: true }] } },
      'GET /api/v1/auth/members': { status: 200, body: { members: [] } },
      'POST /api/v1/auth/api-keys': { status: 503, body: { error: 'Service unavailable' }, headers: { 'Retry-After': '5' } },
    });
    const row = (await screen.findByRole('cell', { name: summary.prefix })).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'Revoked' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'a removed member' })).toBeInTheDocument();
    expect(within(row).queryByRole('button')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Service unavailable\. Try again in 5 seconds \(at .+\)\.$/);
    expect(requests.find((r) => r.method === 'POST' && r.url === '/api/v1/auth/api-keys')?.body).toEqual({});
  });

  it('revokes a key only after a second, named confirmation, and can be cancelled', async () => {
    let revoked = false;
    const { user, requests } = await renderSignedIn('owner', '/api-keys', {
      'GET /api/v1/auth/api-keys': () => ({ status: 200, body: { api_keys: [{ ...summary, revoked }] } }),
      'GET /api/v1/auth/members': { status: 200, body: { members: [] } },
      'DELETE /api/v1/auth/api-keys/k-1': () => {
        revoked = true;
        return { status: 200, body: { revoked: true } };
      },
    });
    const deletes = () => requests.filter((r) => r.method === 'DELETE');
    await user.click(await screen.findByRole('button', { name: `Revoke key ${summary.prefix}` }));
    expect(deletes()).toEqual([]);
    await user.click(screen.getByRole('button', { name: `Keep key ${summary.prefix}` }));
    expect(screen.queryByRole('button', { name: `Confirm revoking key ${summary.prefix}` })).toBeNull();
    expect(deletes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Revoke key ${summary.prefix}` }));
    await user.click(screen.getByRole('button', { name: `Confirm revoking key ${summary.prefix}` }));
    expect(await screen.findByRole('status')).toHaveTextContent(`Key ${summary.prefix} was revoked.`);
    expect(deletes().map((r) => r.url)).toEqual(['/api/v1/auth/api-keys/k-1']);
    expect(await screen.findByRole('cell', { name: 'Revoked' })).toBeInTheDocument();
  });
});
