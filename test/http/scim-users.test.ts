import supertest from 'supertest';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner } from '../support/http-fixtures';
import { expectScimError, oktaActive, oktaUser, provision, SCIM, scimHeaders, scimTokenOf, USER_SCHEMA } from '../support/scim-fixtures';
import { claimDomains, freshDomain } from '../support/sso-fixtures';

/** SCIM 2.0 Users over HTTP, on memory storage: what a tenant's identity provider can do with its token. */
describe('SCIM Users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.assembly.close());

  /** A tenant with its SCIM token and one verified domain, whose addresses its provider may create. */
  async function tenantWithToken() {
    const owner = await signupOwner(t.app);
    const domain = freshDomain();
    await claimDomains(t.storage.repos, owner.tenantId, [domain], { verified: true });
    return { owner, token: await scimTokenOf(t.app, owner), address: (label: string) => `${label}@${domain}` };
  }

  it('creates a member from what Okta sends, with no password of theirs: a password sign-in is the contract\'s 401', async () => {
    const { owner, token, address } = await tenantWithToken();
    const email = address('ada');
    const res = await request(t.app).post(`${SCIM}/Users`).set(scimHeaders(token)).send(oktaUser(email.toUpperCase()));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.body).toEqual({
      schemas: [USER_SCHEMA], id: expect.any(String), userName: email, active: true,
      emails: [{ value: email, type: 'work', primary: true }],
      meta: { resourceType: 'User', created: expect.any(String), location: `${SCIM}/Users/${res.body.id}` },
    });
    expect(res.headers['location']).toBe(`${SCIM}/Users/${res.body.id}`);

    expect((await request(t.app).get(`${SCIM}/Users/${res.body.id}`).set(scimHeaders(token))).body).toEqual(res.body);
    const members = (await request(t.app).get(`${AUTH}/members`).set(bearer(owner))).body.members;
    expect(members).toContainEqual({ user_id: res.body.id, email, role: 'member', created_at: res.body.meta.created });
    expectError(await request(t.app).post(`${AUTH}/login`).send({ email, password: PASSWORD }), 401, 'Invalid credentials');
  });

  it('accepts application/json too, and a user sent inactive is created suspended', async () => {
    const { owner, token, address } = await tenantWithToken();
    const email = address('later');
    const res = await request(t.app).post(`${SCIM}/Users`).set({ Authorization: `Bearer ${token}` }).send({ schemas: [USER_SCHEMA], userName: email, active: false });
    expect(res.status).toBe(201);
    expect(res.body.active).toBe(false);
    const listed = (await request(t.app).get(`${AUTH}/members`).set(bearer(owner))).body.members as Array<Record<string, unknown>>;
    expect(listed.find((m) => m['user_id'] === res.body.id)).toMatchObject({ email, suspended_at: expect.any(String) });
  });

  it('finds a member by userName (any case), and pages the list with startIndex and count', async () => {
    const { owner, token, address } = await tenantWithToken();
    const created = [];
    for (const name of ['a', 'b', 'c']) created.push(await provision(t.app, token, address(name)));

    const found = await request(t.app).get(`${SCIM}/Users`).query({ filter: `userName eq "${created[1]!.userName.toUpperCase()}"` }).set(scimHeaders(token));
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.body.Resources.map((u: { id: string }) => u.id)).toEqual([created[1]!.id]);
    const none = await request(t.app).get(`${SCIM}/Users`).query({ filter: 'userName eq "nobody@example.com"' }).set(scimHeaders(token));
    expect(none.body).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] });

    const page = await request(t.app).get(`${SCIM}/Users`).query({ startIndex: 2, count: 2 }).set(scimHeaders(token));
    expect(page.body).toMatchObject({ totalResults: 4, startIndex: 2, itemsPerPage: 2 });
    expect(page.body.Resources.map((u: { id: string }) => u.id)).toEqual([created[0]!.id, created[1]!.id]);
    const first = await request(t.app).get(`${SCIM}/Users`).query({ count: 1 }).set(scimHeaders(token));
    expect(first.body.Resources.map((u: { userName: string }) => u.userName)).toEqual([owner.email]);
  });

  it('refuses what it cannot take in SCIM\'s terms: another filter, a malformed userName, a taken one, bad paging', async () => {
    const { token, address } = await tenantWithToken();
    const headers = scimHeaders(token);
    for (const filter of ['emails eq "a@example.com"', 'userName co "a"', 'userName eq "a" and active eq true', 'userName eq a@example.com']) {
      expectScimError(await request(t.app).get(`${SCIM}/Users`).query({ filter }).set(headers), 400,
        'Only the filter userName eq "<address>" is supported', 'invalidFilter');
    }
    expectScimError(await request(t.app).get(`${SCIM}/Users`).query({ count: 'ten' }).set(headers), 400, 'count must be an integer', 'invalidValue');
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).send({ schemas: [USER_SCHEMA], userName: 'not an address' }), 400,
      'userName must be an e-mail address', 'invalidValue');
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).send({ schemas: [USER_SCHEMA] }), 400, 'userName is required', 'invalidValue');
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).send({ ...oktaUser(address('x')), active: 'maybe' }), 400,
      'active must be a boolean', 'invalidValue');
    await provision(t.app, token, address('taken'));
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).send(oktaUser(address('taken'))), 409, 'Email already registered', 'uniqueness');
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).set('Content-Type', 'application/scim+json').send('{"userName":'), 400,
      'Malformed JSON body', 'invalidSyntax');
  });

  it('V8.4.1: another tenant\'s user is not found, as an unknown or malformed id is; unknown paths under the base answer in SCIM\'s format', async () => {
    const a = await tenantWithToken();
    const b = await tenantWithToken();
    const theirs = await provision(t.app, b.token, b.address('theirs'));
    const headers = scimHeaders(a.token);
    for (const id of [theirs.id, b.owner.userId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expectScimError(await request(t.app).get(`${SCIM}/Users/${id}`).set(headers), 404, 'Member not found');
      expectScimError(await request(t.app).patch(`${SCIM}/Users/${id}`).set(headers).send(oktaActive(false)), 404, 'Member not found');
      expectScimError(await request(t.app).delete(`${SCIM}/Users/${id}`).set(headers), 404, 'Member not found');
    }
    expect((await request(t.app).get(`${SCIM}/Users/${theirs.id}`).set(scimHeaders(b.token))).body.active).toBe(true);
    // No route, so nothing in the API reference to check the answer against: asked without the contract check.
    expectScimError(await supertest(t.app).get(`${SCIM}/Groups`).set(headers), 404, 'Not found');
  });

  it('DELETE removes the member as DELETE /members/:id does: token, key and password refused, the address free; recorded as SCIM\'s doing', async () => {
    const { owner, token } = await tenantWithToken();
    const admin = await joinWithRole(t.app, owner, 'admin');
    const key = await createApiKey(t.app, admin);
    const res = await request(t.app).delete(`${SCIM}/Users/${admin.userId}`).set(scimHeaders(token));
    expect(res.status).toBe(204);

    expectError(await request(t.app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');
    expectError(await request(t.app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
    expectError(await request(t.app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }), 401, 'Invalid credentials');
    expectScimError(await request(t.app).get(`${SCIM}/Users/${admin.userId}`).set(scimHeaders(token)), 404, 'Member not found');
    expect((await request(t.app).post(`${AUTH}/signup`).send({ email: admin.email, password: PASSWORD, tenant_name: 'Next' })).status).toBe(201);

    const events = (await request(t.app).get(`${AUTH}/audit-events`).query({ action: 'scim.user_removed' }).set(bearer(owner))).body.events;
    expect(events).toEqual([expect.objectContaining({
      actor_user_id: null, actor_auth: 'scim', target_id: admin.userId, details: { email: admin.email, role: 'admin', api_keys_revoked: 1, invites_revoked: 0 },
    })]);
  });

  it('never suspends nor removes the last owner who is not suspended (409); a second owner can be', async () => {
    const { owner, token } = await tenantWithToken();
    const headers = scimHeaders(token);
    const last = 'The last owner cannot be suspended or removed';
    expectScimError(await request(t.app).patch(`${SCIM}/Users/${owner.userId}`).set(headers).send(oktaActive(false)), 409, last);
    expectScimError(await request(t.app).delete(`${SCIM}/Users/${owner.userId}`).set(headers), 409, last);

    const second = await joinWithRole(t.app, owner, 'admin');
    expect((await request(t.app).patch(`${AUTH}/members/${second.userId}`).set(bearer(owner)).send({ role: 'owner' })).status).toBe(200);
    expect((await request(t.app).patch(`${SCIM}/Users/${second.userId}`).set(headers).send(oktaActive(false))).body.active).toBe(false);
    expectScimError(await request(t.app).patch(`${SCIM}/Users/${owner.userId}`).set(headers).send(oktaActive(false)), 409, last);
    // The suspended owner is not one who can act, so removing them leaves the tenant as it was.
    expect((await request(t.app).delete(`${SCIM}/Users/${second.userId}`).set(headers)).status).toBe(204);
    expect((await request(t.app).get(`${AUTH}/me`).set(bearer(owner))).status).toBe(200);
  });

  it('V6.8.1 creates only addresses of the tenant\'s verified domains, with its connection\'s default role: another tenant\'s member or domain is no oracle', async () => {
    const { owner, token, address } = await tenantWithToken();
    const other = await tenantWithToken();
    const headers = scimHeaders(token);
    const outside = "userName must be an address of one of the tenant's verified domains";
    for (const userName of [owner.email, other.owner.email, other.address('theirs'), 'someone@unclaimed.example.test']) {
      expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).send(oktaUser(userName)), 400, outside, 'invalidValue');
    }
    const pending = freshDomain();
    await claimDomains(t.storage.repos, owner.tenantId, [pending]);
    expectScimError(await request(t.app).post(`${SCIM}/Users`).set(headers).send(oktaUser(`ann@${pending}`)), 400, outside, 'invalidValue');

    const now = new Date();
    await t.storage.repos.ssoConnections.save({
      tenantId: owner.tenantId, issuer: 'https://idp.example.test', clientId: 'portcullis', clientSecretSealed: 'sealed', defaultRole: 'viewer',
      ssoRequired: false, groupRoles: {}, createdAt: now, updatedAt: now,
    });
    const viewer = await provision(t.app, token, address('vic'));
    const members = (await request(t.app).get(`${AUTH}/members`).set(bearer(owner))).body.members as Array<{ user_id: string; role: string }>;
    expect(members.find((m) => m.user_id === viewer.id)?.role).toBe('viewer');
  });

  it('serves the discovery documents: what it supports, the User resource type and its schema', async () => {
    const { token } = await tenantWithToken();
    const config = await request(t.app).get(`${SCIM}/ServiceProviderConfig`).set(scimHeaders(token));
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 200 } });
    const types = await request(t.app).get(`${SCIM}/ResourceTypes`).set(scimHeaders(token));
    expect(types.body.Resources).toEqual([expect.objectContaining({ id: 'User', endpoint: '/Users', schema: USER_SCHEMA })]);
    const schemas = await request(t.app).get(`${SCIM}/Schemas`).set(scimHeaders(token));
    expect(schemas.body.Resources[0].attributes.map((a: { name: string }) => a.name)).toEqual(['userName', 'active', 'emails']);
  });
});
