import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';
import type { FakeRequest } from '../../../test/fake-api';

function event(n: number, action = 'invite.created', actor = 'u-1') {
  return {
    id: `e-${n}`, tenant_id: 't-1', actor_user_id: actor, actor_auth: 'jwt', action, target_id: null, client_ip: '127.0.0.1',
    user_agent: null, request_id: null, occurred_at: `2026-01-31T12:00:${String(n).padStart(2, '0')}.000Z`, details: {},
  };
}

const members = {
  members: [
    { user_id: 'u-1', email: 'ada@example.com', role: 'owner', created_at: '2026-01-31T12:00:00.000Z' },
    { user_id: 'u-2', email: 'grace@example.com', role: 'admin', created_at: '2026-01-31T12:00:00.000Z' },
  ],
};

describe('Audit log', () => {
  it('shows the newest page, filters by action and actor, and follows the next page', async () => {
    const audit = (request: FakeRequest) => {
      const query = new URL(request.url, 'http://x').searchParams;
      if (query.get('cursor') === 'c-2') return { status: 200, body: { events: [event(1)], next_cursor: null } };
      if (query.get('action')) return { status: 200, body: { events: [event(9, 'member.removed', 'u-2')], next_cursor: null } };
      return { status: 200, body: { events: [event(3, 'login.succeeded'), event(2)], next_cursor: 'c-2' } };
    };
    const { user, requests } = await renderSignedIn('owner', '/audit-log', {
      'GET /api/v1/auth/members': { status: 200, body: members },
      'GET /api/v1/auth/audit-events': audit,
    });
    expect(await screen.findByText('Page 1: 2 events, newest first')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Audit events' });
    const firstRow = within(table).getAllByRole('row')[1]!;
    expect(within(firstRow).getAllByRole('cell').map((c) => c.textContent).slice(1, 4)).toEqual(['login.succeeded', 'ada@example.com', 'jwt']);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2: 1 event, newest first')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    expect(requests.at(-1)?.url).toBe('/api/v1/auth/audit-events?limit=25&cursor=c-2');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'member.removed');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Actor' }), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Show events' }));
    expect(await screen.findByRole('cell', { name: 'member.removed' })).toBeInTheDocument();
    expect(requests.at(-1)?.url).toBe('/api/v1/auth/audit-events?limit=25&action=member.removed&actor=u-2');
  });

  it('shows the API\'s refusal of a filter', async () => {
    await renderSignedIn('admin', '/audit-log', {
      'GET /api/v1/auth/members': { status: 200, body: members },
      'GET /api/v1/auth/audit-events': { status: 400, body: { error: 'cursor is not valid' } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^cursor is not valid$/);
  });

  it('offers the installed modules\' actions, read from the reference the service serves', async () => {
    const { user, requests } = await renderSignedIn('owner', '/audit-log', {
      'GET /api/v1/auth/members': { status: 200, body: members },
      'GET /api/v1/auth/audit-events': { status: 200, body: { events: [event(1, 'note.created')], next_cursor: null } },
      'GET /api/v1/openapi.json': {
        status: 200, body: { components: { schemas: { AuditAction: { type: 'string', enum: ['login.failed', 'note.created', 'note.deleted'] } } } },
      },
    });
    const action = screen.getByRole('combobox', { name: 'Action' });
    await within(action).findByRole('option', { name: 'note.deleted' });
    expect(within(action).getAllByRole('option').map((o) => o.textContent)).toEqual(['Any action', 'login.failed', 'note.created', 'note.deleted']);
    await user.selectOptions(action, 'note.deleted');
    await user.click(screen.getByRole('button', { name: 'Show events' }));
    await screen.findByText('Page 1: 1 event, newest first');
    expect(requests.at(-1)?.url).toBe('/api/v1/auth/audit-events?limit=25&action=note.deleted');
  });

  it('names targets in words: a key by prefix and name, a member by e-mail with the old and new role, sessions by member and why, single sign-on\'s domain, provider and refusal', async () => {
    const events = [
      { ...event(5, 'member.role_changed'), target_id: 'u-2', details: { from: 'admin', to: 'viewer', invites_revoked: 0 } },
      { ...event(4, 'api_key.revoked'), target_id: 'k-1', details: {} },
      { ...event(3, 'member.removed'), target_id: 'u-9', details: { email: 'gone@example.com', role: 'member', api_keys_revoked: 0 } },
      { ...event(2, 'invite.created'), target_id: 'i-1', details: { email: 'new@example.com', role: 'viewer' } },
      { ...event(1, 'invite.revoked'), target_id: 'i-1', details: {} },
      { ...event(6, 'session.ended'), target_id: 'u-2', details: { reason: 'admin', user_id: 'u-2', count: 2 } },
      { ...event(7, 'session.started'), target_id: 's-1', details: { how: 'password_reset' } },
      { ...event(8, 'sso.domain_verified'), target_id: 't-1', details: { domain: 'engines.example' } },
      { ...event(9, 'sso.member_created'), target_id: 'u-2', details: { role: 'member', issuer: 'https://idp.engines.example' } },
      { ...event(10, 'sso.sign_in_refused'), target_id: null, details: { reason: 'domain_not_verified' } },
      { ...event(11, 'sso.connection_saved'), target_id: 't-1', details: { issuer: 'https://idp.engines.example', client_id: 'portcullis' } },
    ];
    await renderSignedIn('owner', '/audit-log', {
      'GET /api/v1/auth/members': { status: 200, body: members },
      'GET /api/v1/auth/api-keys': {
        status: 200, body: { api_keys: [{ id: 'k-1', prefix: 'pcls_1234abcd', name: 'ci', created_by: 'u-1', created_at: '2026-01-31T12:00:00.000Z', last_used_at: null, expires_at: null, revoked: true }] },
      },
      'GET /api/v1/auth/audit-events': { status: 200, body: { events, next_cursor: null } },
    });
    const table = await screen.findByRole('table', { name: 'Audit events' });
    await within(table).findByRole('cell', { name: 'key pcls_1234abcd ("ci")' });
    const targets = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[4]!.textContent);
    expect(targets).toEqual([
      'grace@example.com: admin → viewer',
      'key pcls_1234abcd ("ci")',
      'gone@example.com (was member)',
      'invitation for new@example.com as viewer',
      'invitation for new@example.com',
      'grace@example.com: 2 sessions (admin)',
      'session from password reset',
      'domain engines.example',
      'grace@example.com as member through https://idp.engines.example',
      'refused: domain not verified',
      'provider https://idp.engines.example',
    ]);
  });
});
