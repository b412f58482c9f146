import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { type Account, AUTH, bearer, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { OidcTestProvider } from '../support/oidc-test-provider';
import { assembleForTest, testConfig } from '../support/test-use-cases';

const CONNECTION = `${AUTH}/sso/connection`;
const SECRET = 'the-client-secret-the-provider-gave';

describe('a tenant\'s single sign-on connection', () => {
  let t: TestApp;
  let provider: OidcTestProvider;
  const clock = new TestClock();
  beforeAll(async () => {
    [t, provider] = await Promise.all([buildTestApp({}, { clock }), OidcTestProvider.start()]);
  });
  afterAll(async () => {
    await Promise.all([t.assembly.close(), provider.close()]);
  });

  const body = (overrides: Record<string, unknown> = {}) => ({ issuer: provider.issuer, client_id: 'portcullis-client', client_secret: SECRET, ...overrides });
  const put = (owner: Account, payload: object) => request(t.app).put(CONNECTION).set(bearer(owner)).send(payload);

  it('the owner saves it; an admin reads it; the secret is never answered, and the redirect URI to register is', async () => {
    const owner = await signupOwner(t.app, 'Connected Co');
    const saved = await put(owner, body({ default_role: 'viewer', sso_required: true, group_roles: { Engineering: 'admin', Staff: 'member' } }));
    expect(saved.status).toBe(200);
    const at = clock.now().toISOString();
    expect(saved.body).toEqual({
      issuer: provider.issuer, client_id: 'portcullis-client', default_role: 'viewer', sso_required: true,
      group_roles: { Engineering: 'admin', Staff: 'member' }, redirect_uri: 'http://localhost:3000/api/v1/auth/sso/callback',
      created_at: at, updated_at: at,
    });

    const admin = await joinWithRole(t.app, owner, 'admin');
    const read = await request(t.app).get(CONNECTION).set(bearer(admin));
    expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: saved.body });
    expect(JSON.stringify(read.body)).not.toContain(SECRET);
  });

  it('the client secret is stored sealed for its tenant, never in the clear', async () => {
    const owner = await signupOwner(t.app, 'Sealed Co');
    expect((await put(owner, body())).status).toBe(200);
    const stored = await t.storage.repos.ssoConnections.find(owner.tenantId);
    expect(stored?.clientSecretSealed).toEqual(expect.any(String));
    expect(stored?.clientSecretSealed).not.toContain(SECRET);
    expect(stored?.clientSecretSealed).not.toContain(Buffer.from(SECRET).toString('base64'));
  });

  it('defaults: member role, sso_required off, no group mapping', async () => {
    const owner = await signupOwner(t.app, 'Defaults Co');
    const saved = await put(owner, body());
    expect(saved.body).toMatchObject({ default_role: 'member', sso_required: false, group_roles: {} });
  });

  it('a save replaces the whole connection and keeps when it was created', async () => {
    const owner = await signupOwner(t.app, 'Replaced Co');
    const first = await put(owner, body({ sso_required: true, group_roles: { Ops: 'admin' } }));
    clock.advance({ minutes: 1 });
    const second = await put(owner, body({ client_id: 'another-client' }));
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      client_id: 'another-client', sso_required: false, group_roles: {}, created_at: first.body.created_at, updated_at: clock.now().toISOString(),
    });
  });

  it('only the owner changes it, and only with recent authentication; a member cannot read it', async () => {
    const owner = await signupOwner(t.app, 'Guarded Co');
    const admin = await joinWithRole(t.app, owner, 'admin');
    const member = await joinWithRole(t.app, owner, 'member');
    expectError(await put(admin, body()), 403, 'Requires owner role or higher');
    expectError(await request(t.app).delete(CONNECTION).set(bearer(admin)), 403, 'Requires owner role or higher');
    expectError(await request(t.app).get(CONNECTION).set(bearer(member)), 403, 'Requires admin role or higher');

    clock.advance({ minutes: 11 });
    expectError(await put(owner, body()), 403, 'Recent authentication required');
    expectError(await request(t.app).get(CONNECTION).set(bearer(owner)), 404, 'No single sign-on connection');
  });

  it('a provider whose discovery document cannot be read, or names another issuer, is refused and nothing is stored', async () => {
    const owner = await signupOwner(t.app, 'Undiscovered Co');
    const message = "Could not read the provider's discovery document";
    expectError(await put(owner, body({ issuer: 'http://127.0.0.1:9' })), 400, message);
    expectError(await put(owner, body({ issuer: `${provider.issuer}/elsewhere` })), 400, message);
    expectError(await request(t.app).get(CONNECTION).set(bearer(owner)), 404, 'No single sign-on connection');
  });

  it('bad input is a 400 naming what is wrong', async () => {
    const owner = await signupOwner(t.app, 'Careless Co');
    const groups = 'group_roles must map each group name to admin, member or viewer';
    expectError(await put(owner, body({ group_roles: { Founders: 'owner' } })), 400, groups);
    expectError(await put(owner, body({ group_roles: ['admin'] })), 400, 'group_roles must be an object');
    expectError(await put(owner, body({ group_roles: { Many: ['admin'] } })), 400, groups);
    expectError(await put(owner, body({ group_roles: { '': 'admin' } })), 400, groups);
    expectError(await put(owner, body({ issuer: 'ftp://idp.example.com' })), 400, 'issuer must be an https URL');
    expectError(await put(owner, body({ issuer: `${provider.issuer}?tenant=1` })), 400, 'issuer must be an https URL');
    expectError(await put(owner, body({ issuer: 'not a url' })), 400, 'issuer must be an https URL');
    for (const wrong of [{ default_role: 'owner' }, { sso_required: 'yes' }, { client_secret: '' }, { client_secret: undefined }, { extra: 1 }]) {
      const res = await put(owner, body(wrong));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: expect.any(String) });
    }
    expectError(await request(t.app).get(CONNECTION).set(bearer(owner)), 404, 'No single sign-on connection');
  });

  it('removing it answers 204 once, then 404; another tenant never sees it', async () => {
    const owner = await signupOwner(t.app, 'Removed Co');
    const stranger = await signupOwner(t.app, 'Stranger Co');
    await put(owner, body());
    expectError(await request(t.app).get(CONNECTION).set(bearer(stranger)), 404, 'No single sign-on connection');
    expectError(await request(t.app).delete(CONNECTION).set(bearer(stranger)), 404, 'No single sign-on connection');

    expect((await request(t.app).delete(CONNECTION).set(bearer(owner))).status).toBe(204);
    expectError(await request(t.app).delete(CONNECTION).set(bearer(owner)), 404, 'No single sign-on connection');
    expectError(await request(t.app).get(CONNECTION).set(bearer(owner)), 404, 'No single sign-on connection');
  });

  it('V16.2.5: every change is in the audit trail, without the secret', async () => {
    const owner = await signupOwner(t.app, 'Audited Co');
    await put(owner, body({ sso_required: true }));
    await put(owner, body());
    await request(t.app).delete(CONNECTION).set(bearer(owner));
    const trail = await request(t.app).get(`${AUTH}/audit-events`).set(bearer(owner));
    const events = (trail.body.events as { action: string; details: object }[]).filter((event) => event.action.startsWith('sso.'));
    expect(events.map((event) => [event.action, event.details])).toEqual([
      ['sso.connection_removed', { issuer: provider.issuer, client_id: 'portcullis-client' }],
      ['sso.connection_saved', {
        issuer: provider.issuer, client_id: 'portcullis-client', default_role: 'member', sso_required: false, group_roles: 0, replaced: true,
      }],
      ['sso.connection_saved', {
        issuer: provider.issuer, client_id: 'portcullis-client', default_role: 'member', sso_required: true, group_roles: 0, replaced: false,
      }],
    ]);
    expect(JSON.stringify(trail.body)).not.toContain(SECRET);
  });
});

describe('an http: issuer where SSO_ALLOW_HTTP_ISSUER is off', () => {
  it('is refused before the provider is asked', async () => {
    const provider = await OidcTestProvider.start();
    const assembly = await assembleForTest({}, testConfig({}, { sso: { allowHttpIssuer: false } }));
    try {
      const owner = await signupOwner(assembly.listener, 'Strict Co');
      const res = await request(assembly.listener).put(CONNECTION).set(bearer(owner))
        .send({ issuer: provider.issuer, client_id: 'c', client_secret: 's' });
      expectError(res, 400, 'issuer must be an https URL');
    } finally {
      await Promise.all([assembly.close(), provider.close()]);
    }
  });
});
