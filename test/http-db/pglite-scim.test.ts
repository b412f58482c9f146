import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { entraActive, expectScimError, oktaActive, provision, SCIM, scimHeaders, scimTokenOf, setActive } from '../support/scim-fixtures';
import { claimDomains, freshDomain } from '../support/sso-fixtures';

/**
 * SCIM over HTTP on the embedded database, walls and triggers included: a provider creates a member
 * of its verified domain, deactivates and restores one, and removes one, each in force on the next
 * request.
 */
describe('SCIM on PGlite', () => {
  let t: DatabaseApp;
  beforeAll(async () => {
    t = await databaseApp('pglite');
  }, 60_000);
  afterAll(() => t?.close());

  it('V7.4.2 creates only its verified domain\'s addresses, suspends (token and key refused, listed as suspended), restores (the key again) and removes', async () => {
    const owner = await signupOwner(t.app);
    const domain = freshDomain();
    await claimDomains(t.repos, owner.tenantId, [domain], { verified: true });
    const token = await scimTokenOf(t.app, owner);

    const created = await provision(t.app, token, `ada@${domain}`);
    expect(created).toMatchObject({ userName: `ada@${domain}`, active: true });
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(scimHeaders(token)).send({ userName: 'bob@elsewhere.example.test' }), 400,
      "userName must be an address of one of the tenant's verified domains", 'invalidValue');

    const admin = await joinWithRole(t.app, owner, 'admin');
    const key = await createApiKey(t.app, admin);
    expect((await setActive(t.app, token, admin.userId, entraActive(false))).body.active).toBe(false);
    expectError(await request(t.app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');
    expectError(await request(t.app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
    expectError(await request(t.app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }), 401, 'Invalid credentials');
    const members = (await request(t.app).get(`${AUTH}/members`).set(bearer(owner))).body.members as Array<Record<string, unknown>>;
    expect(members.find((m) => m['user_id'] === admin.userId)).toMatchObject({ suspended_at: expect.any(String) });

    expect((await setActive(t.app, token, admin.userId, oktaActive(true))).body.active).toBe(true);
    expect((await request(t.app).get(`${AUTH}/me`).set('x-api-key', key)).status).toBe(200);
    expectError(await request(t.app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');

    expect((await request(t.app).delete(`${SCIM}/Users/${admin.userId}`).set(scimHeaders(token))).status).toBe(204);
    expectError(await request(t.app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
    expectScimError(await request(t.app).get(`${SCIM}/Users/${admin.userId}`).set(scimHeaders(token)), 404, 'Member not found');
  });
});
