import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';
import type { FakeAnswer, FakeRequest } from '../../../test/fake-api';
import type { SsoConnection, SsoDomain } from './sso-types';

const browser = vi.hoisted(() => ({ leaveFor: vi.fn(), openInNewTab: vi.fn() }));
vi.mock('../../shared/leave-console', () => browser);

type Route = FakeAnswer | ((request: FakeRequest) => FakeAnswer);

const CALLBACK = 'https://auth.engines.example/api/v1/auth/sso/callback';
const connection: SsoConnection = {
  issuer: 'https://idp.engines.example',
  client_id: 'portcullis',
  default_role: 'member',
  sso_required: false,
  group_roles: { engineering: 'admin' },
  redirect_uri: CALLBACK,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};
const pending: SsoDomain = {
  domain: 'engines.example',
  txt_name: '_portcullis-verification.engines.example',
  txt_value: 'portcullis-verification=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5',
  verified: false,
  verified_at: null,
};
const noConnection = { status: 404, body: { error: 'No single sign-on connection' } };
const noToken = { status: 200, body: { exists: false, created_at: null, last_used_at: null } };
const recentAuthRequired = { status: 403, body: { error: 'Recent authentication required' } };

async function openSso(role: 'owner' | 'admin', routes: Record<string, Route>) {
  const rendered = await renderSignedIn(role, '/members', {
    'GET /api/v1/auth/members': { status: 200, body: { members: [] } },
    'GET /api/v1/auth/sso/connection': noConnection,
    'GET /api/v1/auth/sso/domains': { status: 200, body: { domains: [] } },
    'GET /api/v1/auth/sso/scim-token': noToken,
    ...routes,
  });
  if (role === 'owner') await rendered.user.click(screen.getByRole('link', { name: 'Single sign-on' }));
  else {
    window.history.pushState(null, '', '/console/sso');
    window.dispatchEvent(new PopStateEvent('popstate'));
  }
  expect(await screen.findByRole('heading', { level: 1, name: 'Single sign-on' })).toHaveFocus();
  return rendered;
}

describe('Single sign-on (owners change it, admins read it)', () => {
  beforeEach(() => browser.openInNewTab.mockReset());

  it('connects a provider: the redirect URI to register, the secret sent once and never shown, groups mapped to roles, after the password is proved again', async () => {
    let saved: SsoConnection | null = null;
    let puts = 0;
    const { user, requests } = await openSso('owner', {
      'GET /api/v1/auth/sso/connection': () => (saved ? { status: 200, body: saved } : noConnection),
      'PUT /api/v1/auth/sso/connection': (request) => {
        if (puts++ === 0) return recentAuthRequired;
        const body = request.body as { issuer: string; client_id: string; default_role: 'viewer'; sso_required: boolean; group_roles: Record<string, 'admin'> };
        saved = { ...connection, issuer: body.issuer, client_id: body.client_id, default_role: body.default_role, sso_required: body.sso_required, group_roles: body.group_roles, updated_at: '2026-11-26T11:00:00.000Z' };
        return { status: 200, body: saved };
      },
      'POST /api/v1/auth/reauthenticate': { status: 200, body: { reauthenticated: true } },
    });
    expect(await screen.findByText('Your organisation has no single sign-on connection yet.')).toBeInTheDocument();
    // Before any connection, the callback at this console's own origin.
    expect(screen.getByLabelText('Redirect URI')).toHaveTextContent('http://localhost:3000/api/v1/auth/sso/callback');
    expect(screen.queryByRole('button', { name: 'Test sign-in' })).toBeNull();

    await user.type(screen.getByLabelText('Issuer'), 'https://idp.engines.example');
    await user.type(screen.getByLabelText('Client ID'), 'portcullis');
    await user.type(screen.getByLabelText('Client secret'), 'the provider secret');
    await user.selectOptions(screen.getByLabelText('Default role'), 'viewer');
    await user.click(screen.getByRole('checkbox', { name: /Require single sign-on/ }));
    await user.click(screen.getByRole('button', { name: 'Add a group' }));
    await user.type(screen.getByLabelText('Group 1'), 'engineering');
    await user.selectOptions(screen.getByLabelText('Role for group 1'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Add a group' }));
    await user.type(screen.getByLabelText('Group 2'), 'contractors');
    await user.click(screen.getByRole('button', { name: 'Remove group 2' }));
    await user.click(screen.getByRole('button', { name: 'Save the connection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('The connection is saved.')).toBeInTheDocument();
    const body = {
      issuer: 'https://idp.engines.example', client_id: 'portcullis', client_secret: 'the provider secret',
      default_role: 'viewer', sso_required: true, group_roles: { engineering: 'admin' },
    };
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([body, body]);
    // The service's redirect URI now; the secret is not kept in the form.
    expect(await screen.findByLabelText('Redirect URI')).toHaveTextContent(CALLBACK);
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
    expect(screen.getByLabelText('Default role')).toHaveValue('viewer');
    expect(screen.getByLabelText('Group 1')).toHaveValue('engineering');
    expect(screen.getByRole('heading', { level: 2, name: 'Test sign-in' })).toBeInTheDocument();
  });

  it('shows the API\'s refusal of a provider whose discovery document cannot be read, and keeps what was typed', async () => {
    const { user } = await openSso('owner', {
      'PUT /api/v1/auth/sso/connection': { status: 400, body: { error: 'Could not read the provider\'s discovery document' } },
    });
    await user.type(await screen.findByLabelText('Issuer'), 'https://nowhere.example');
    await user.type(screen.getByLabelText('Client ID'), 'x');
    await user.type(screen.getByLabelText('Client secret'), 'y');
    await user.click(screen.getByRole('button', { name: 'Save the connection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Could not read the provider's discovery document$/);
    expect(screen.getByLabelText('Issuer')).toHaveValue('https://nowhere.example');
  });

  it('opens a test sign-in from the owner\'s own address (of a verified domain) in a new tab, and removes the connection after a confirmation', async () => {
    let removed = false;
    const { user, requests } = await openSso('owner', {
      'GET /api/v1/auth/sso/connection': () => (removed ? noConnection : { status: 200, body: connection }),
      'GET /api/v1/auth/sso/domains': { status: 200, body: { domains: [{ ...pending, domain: 'example.com', verified: true, verified_at: '2026-11-21T10:00:00.000Z' }] } },
      'DELETE /api/v1/auth/sso/connection': () => {
        removed = true;
        return { status: 204, body: null };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Test sign-in' }));
    expect(browser.openInNewTab).toHaveBeenCalledWith('http://localhost:3000/api/v1/auth/sso/start?email=owner%40example.com');
    expect(screen.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove the connection' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Confirm removal of the connection' }));
    expect(await screen.findByText('The connection is removed: nobody signs in through the provider any more.')).toBeInTheDocument();
    expect(await screen.findByText('Your organisation has no single sign-on connection yet.')).toBeInTheDocument();
  });

  it('explains why Test sign-in waits while the owner\'s own domain is not verified', async () => {
    await openSso('owner', {
      'GET /api/v1/auth/sso/connection': { status: 200, body: connection },
      'GET /api/v1/auth/sso/domains': { status: 200, body: { domains: [{ ...pending, domain: 'example.com' }] } },
    });
    expect(await screen.findByText(/available once its domain is verified below\.$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Test sign-in' })).toBeNull();
  });

  it('adds a domain, shows its TXT record to publish, says when the record is not there yet, then verifies and removes it', async () => {
    let domains: SsoDomain[] = [];
    let verifications = 0;
    const { user, requests } = await openSso('owner', {
      'GET /api/v1/auth/sso/domains': () => ({ status: 200, body: { domains } }),
      'POST /api/v1/auth/sso/domains': (request) => {
        domains = [{ ...pending, domain: (request.body as { domain: string }).domain }];
        return { status: 201, body: domains[0] };
      },
      'POST /api/v1/auth/sso/domains/engines.example/verify': () => {
        if (verifications++ === 0) return { status: 400, body: { error: 'Verification record not found' } };
        domains = [{ ...pending, verified: true, verified_at: '2026-11-26T11:05:00.000Z' }];
        return { status: 200, body: domains[0] };
      },
      'DELETE /api/v1/auth/sso/domains/engines.example': () => {
        domains = [];
        return { status: 204, body: null };
      },
    });
    expect(await screen.findByText('Your organisation has no domain yet.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Domain'), ' engines.example ');
    await user.click(screen.getByRole('button', { name: 'Add the domain' }));
    expect(await screen.findByText('engines.example is added: publish its TXT record, then verify it.')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Domains (1)' });
    const row = within(table).getByRole('row', { name: /^engines\.example/ });
    expect(row).toHaveTextContent(pending.txt_name);
    expect(row).toHaveTextContent(pending.txt_value);
    expect(row).toHaveTextContent('Not verified');
    expect(within(row).getByRole('button', { name: 'Copy the record value' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Verify engines.example' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent(/^Verification record not found$/);
    await user.click(within(row).getByRole('button', { name: 'Verify engines.example' }));
    expect(await screen.findByText('engines.example is verified.')).toBeInTheDocument();
    expect(await within(table).findByText(/Verified on/)).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Verify engines.example' })).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Remove engines.example' }));
    await user.click(within(table).getByRole('button', { name: 'Confirm removing engines.example' }));
    expect(await screen.findByText('engines.example was removed.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method !== 'GET' && r.url.startsWith('/api/v1/auth/sso')).map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/auth/sso/domains',
      'POST /api/v1/auth/sso/domains/engines.example/verify',
      'POST /api/v1/auth/sso/domains/engines.example/verify',
      'DELETE /api/v1/auth/sso/domains/engines.example',
    ]);
    expect(requests.find((r) => r.method === 'POST' && r.url === '/api/v1/auth/sso/domains')?.body).toEqual({ domain: 'engines.example' });
  });

  it('shows the API\'s refusal of a domain another organisation has verified', async () => {
    const { user } = await openSso('owner', {
      'POST /api/v1/auth/sso/domains': { status: 409, body: { error: 'Domain is verified by another tenant' } },
    });
    await user.type(await screen.findByLabelText('Domain'), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Add the domain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Domain is verified by another tenant$/);
  });

  it('makes a SCIM token shown once (to copy), replaces it, and revokes it', async () => {
    let token: { created_at: string; last_used_at: string | null } | null = null;
    let made = 0;
    const { user } = await openSso('owner', {
      'GET /api/v1/auth/sso/scim-token': () => ({ status: 200, body: token ? { exists: true, ...token } : { exists: false, created_at: null, last_used_at: null } }),
      'POST /api/v1/auth/sso/scim-token': () => {
        token = { created_at: '2026-11-26T11:10:00.000Z', last_used_at: null };
        return { status: 201, body: { token: `scim-secret-${++made}`, created_at: token.created_at } };
      },
      'DELETE /api/v1/auth/sso/scim-token': () => {
        token = null;
        return { status: 204, body: null };
      },
    });
    expect(await screen.findByText('No token is set: SCIM is off.')).toBeInTheDocument();
    expect(screen.getByLabelText('SCIM base URL')).toHaveTextContent('http://localhost:3000/api/v1/scim/v2');
    await user.click(screen.getByRole('button', { name: 'Make a SCIM token' }));
    const panel = await screen.findByRole('region', { name: 'Your SCIM token' });
    expect(within(panel).getByLabelText('SCIM token')).toHaveValue('scim-secret-1');
    expect(within(panel).getByRole('heading', { name: 'Your SCIM token' })).toHaveFocus();
    expect(await screen.findByText(/A token is set: made .*, last used Never\./)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue('scim-secret-1')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Replace the SCIM token' }));
    expect(within(await screen.findByRole('region', { name: 'Your SCIM token' })).getByLabelText('SCIM token')).toHaveValue('scim-secret-2');
    expect(screen.getByText('A new SCIM token replaces the old one, which no longer works.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Revoke the SCIM token' }));
    await user.click(screen.getByRole('button', { name: 'Confirm revoking the SCIM token' }));
    expect(await screen.findByText('The SCIM token is revoked: your provider can no longer change members.')).toBeInTheDocument();
    expect(await screen.findByText('No token is set: SCIM is off.')).toBeInTheDocument();
  });

  it('keeps the connection and domains usable when one part cannot be read, and says what went wrong there', async () => {
    await openSso('owner', {
      'GET /api/v1/auth/sso/connection': { status: 200, body: connection },
      'GET /api/v1/auth/sso/scim-token': { status: 503, body: { error: 'Service unavailable' } },
    });
    expect(await screen.findByLabelText('Issuer')).toHaveValue('https://idp.engines.example');
    expect(await screen.findByText('Your organisation has no domain yet.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Service unavailable$/);
    expect(screen.queryByRole('button', { name: 'Make a SCIM token' })).toBeNull();
  });

  it('lets an admin read the connection, domains and token at its address, without controls, and keeps it out of their navigation', async () => {
    await openSso('admin', {
      'GET /api/v1/auth/sso/connection': { status: 200, body: connection },
      'GET /api/v1/auth/sso/domains': { status: 200, body: { domains: [{ ...pending, verified: true, verified_at: '2026-11-21T10:00:00.000Z' }] } },
      'GET /api/v1/auth/sso/scim-token': { status: 200, body: { exists: true, created_at: '2026-11-21T10:00:00.000Z', last_used_at: '2026-11-25T10:00:00.000Z' } },
    });
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Single sign-on' })).toBeNull();
    expect(await screen.findByText('https://idp.engines.example')).toBeInTheDocument();
    expect(screen.getByText('engineering → admin')).toBeInTheDocument();
    expect(screen.getByText('Only an owner changes the connection.')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Domains (1)' })).toHaveTextContent('Verified on');
    expect(screen.queryByLabelText('Client secret')).toBeNull();
    const controls = within(screen.getByRole('main')).getAllByRole('button').map((button) => button.textContent);
    expect(controls.every((name) => name?.startsWith('Copy') || name === 'Test sign-in')).toBe(true);
  });
});
