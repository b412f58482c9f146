import { randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { TEST_JWT_SECRET } from '../support/test-use-cases';

const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('Authentication', () => {
  describe('GET /api/v1/auth/me', () => {
    it('answers with the identity of a bearer token', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const res = await request(app).get(`${AUTH}/me`).set(bearer(owner));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner' });
    });

    it('answers for any role, viewer included', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const viewer = await joinWithRole(app, owner, 'viewer');
      const res = await request(app).get(`${AUTH}/me`).set(bearer(viewer));
      expect(res.body).toEqual({ tenant_id: owner.tenantId, user_id: viewer.userId, role: 'viewer' });
    });

    it("answers with the key's tenant and user, and the owning user's role, for an API key", async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const admin = await joinWithRole(app, owner, 'admin');
      const apiKey = await createApiKey(app, admin);
      const res = await request(app).get(`${AUTH}/me`).set('x-api-key', apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tenant_id: owner.tenantId, user_id: admin.userId, role: 'admin' });
    });
  });

  describe('POST /api/v1/auth/api-keys', () => {
    it('answers 201 with a pcls_ key of 37 characters and its first 13 as prefix', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const res = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner));
      expect(res.status).toBe(201);
      // The spec's two fields, and the key's id, name and expiry, which are null when no body was sent.
      expect(res.body).toEqual({
        api_key: expect.stringMatching(/^pcls_[0-9a-f]{32}$/), prefix: expect.any(String), id: expect.any(String), name: null, expires_at: null,
      });
      expect(res.body.prefix).toBe(res.body.api_key.slice(0, 13));
    });

    it('issues a different key every time, each usable on its own', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const first = await createApiKey(app, owner);
      const second = await createApiKey(app, owner);
      expect(first).not.toBe(second);
      for (const key of [first, second]) await request(app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
    });

    it('can be called with an API key as credential', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const key = await createApiKey(app, owner);
      const res = await request(app).post(`${AUTH}/api-keys`).set('x-api-key', key);
      expect(res.status).toBe(201);
    });
  });

  describe('x-api-key header', () => {
    it('is used alone when present: a valid Authorization does not rescue a bad key', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const res = await request(app).get(`${AUTH}/me`).set(bearer(owner)).set('x-api-key', `pcls_${'0'.repeat(32)}`);
      expectError(res, 401, 'Invalid API key');
    });

    it('is used alone when present: a broken Authorization is ignored beside a good key', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const key = await createApiKey(app, owner);
      const res = await request(app).get(`${AUTH}/me`).set('Authorization', 'Bearer garbage').set('x-api-key', key);
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(owner.userId);
    });

    it.each([
      ['a wrong prefix', `pclx_${'a'.repeat(32)}`],
      ['no prefix', 'a'.repeat(37)],
      ['one character short', `pcls_${'a'.repeat(31)}`],
      ['one character long', `pcls_${'a'.repeat(33)}`],
      ['an empty value', ''],
    ])('answers 401 Invalid API key format for %s', async (_label, key) => {
      const { app } = await buildTestApp();
      const res = await request(app).get(`${AUTH}/me`).set('x-api-key', key);
      expectError(res, 401, 'Invalid API key format');
    });

    it('answers 401 Invalid API key for a well-formed key nobody was given', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).get(`${AUTH}/me`).set('x-api-key', `pcls_${randomBytes(16).toString('hex')}`);
      expectError(res, 401, 'Invalid API key');
    });

    it('answers 401 Invalid API key for a real key with one character changed (same prefix)', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const key = await createApiKey(app, owner);
      const tampered = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
      const res = await request(app).get(`${AUTH}/me`).set('x-api-key', tampered);
      expectError(res, 401, 'Invalid API key');
    });

    it('answers 401 Invalid API key for a key in upper case', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const key = await createApiKey(app, owner);
      const res = await request(app).get(`${AUTH}/me`).set('x-api-key', `pcls_${key.slice(5).toUpperCase()}`);
      expectError(res, 401, 'Invalid API key');
    });
  });

  describe('bearer token', () => {
    const claimsOf = (owner: { tenantId: string; userId: string; email: string }) =>
      ({ tenantId: owner.tenantId, userId: owner.userId, email: owner.email, role: 'owner' });

    it.each([
      ['garbage', () => 'garbage'],
      ['a token signed with another secret', (c: object) => jwt.sign(c, 'another-secret-of-at-least-32-bytes!!', { algorithm: 'HS256', expiresIn: '1h' })],
      ['an unsigned token (alg none)', (c: object) =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...c, exp: Math.floor(Date.now() / 1000) + 3600 })}.`],
      ['an HS512 token with the right secret', (c: object) => jwt.sign(c, TEST_JWT_SECRET, { algorithm: 'HS512', expiresIn: '1h' })],
      ['an expired token', (c: object) => jwt.sign({ ...c, exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, { algorithm: 'HS256' })],
      ['a token without expiry', (c: object) => jwt.sign(c, TEST_JWT_SECRET, { algorithm: 'HS256' })],
      ['a signed token without our claims', () => jwt.sign({ sub: 'x' }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' })],
    ])('answers 401 Invalid or expired token for %s', async (_label, make) => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const res = await request(app).get(`${AUTH}/me`).set('Authorization', `Bearer ${make(claimsOf(owner))}`);
      expectError(res, 401, 'Invalid or expired token');
    });

    it('accepts a token this service would have signed, made independently with the shared secret', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const token = jwt.sign(claimsOf(owner), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
      const res = await request(app).get(`${AUTH}/me`).set('Authorization', `Bearer ${token}`);
      expect(res.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner' });
    });

    const signed = (claims: object) => `Bearer ${jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' })}`;

    it('acts with the role its claims name, not the stored one: an owner token claiming viewer is a viewer', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const token = signed({ ...claimsOf(owner), role: 'viewer' });
      const me = await request(app).get(`${AUTH}/me`).set('Authorization', token);
      expect(me.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'viewer' });
      expectError(await request(app).post(`${AUTH}/api-keys`).set('Authorization', token), 403, 'Requires admin role or higher');
      expectError(await request(app).get(`${AUTH}/invites`).set('Authorization', token), 403, 'Requires admin role or higher');
    });

    it('counts a role claim it does not know as level 0: GET /me answers it as given, every guarded route refuses it', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const token = signed({ ...claimsOf(owner), role: 'superuser' });
      const me = await request(app).get(`${AUTH}/me`).set('Authorization', token);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ tenant_id: owner.tenantId, user_id: owner.userId, role: 'superuser' });
      const guarded = [
        request(app).post(`${AUTH}/api-keys`), request(app).get(`${AUTH}/api-keys`), request(app).get(`${AUTH}/invites`),
        request(app).get(`${AUTH}/members`), request(app).get(`${AUTH}/audit-events`),
      ];
      for (const req of guarded) expectError(await req.set('Authorization', token), 403, 'Requires admin role or higher');
      const invite = await request(app).post(`${AUTH}/invite`).set('Authorization', token).send({ email: 'someone@example.com' });
      expectError(invite, 403, 'Requires admin role or higher');
    });

    it('still refuses a well-signed token whose user is unknown, of another tenant, or behind on its auth version', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const other = await signupOwner(app);
      const member = await joinWithRole(app, owner, 'member');
      // A role change raises the member's auth version from 0 to 1.
      await request(app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'admin' }).expect(200);
      const refused = [
        signed({ ...claimsOf(owner), userId: randomUUID() }),
        signed({ ...claimsOf(owner), tenantId: other.tenantId }),
        signed({ ...claimsOf(member), role: 'admin', authVersion: 0 }),
        signed({ ...claimsOf(member), role: 'admin' }), // no version: version 0
      ];
      for (const token of refused) expectError(await request(app).get(`${AUTH}/me`).set('Authorization', token), 401, 'Invalid or expired token');
      const current = signed({ ...claimsOf(member), role: 'admin', authVersion: 1 });
      expect((await request(app).get(`${AUTH}/me`).set('Authorization', current)).body.role).toBe('admin');
    });
  });

  describe('no credentials', () => {
    it.each([
      ['no header at all', {}],
      ['an Authorization of another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['a lower-case bearer scheme', { Authorization: 'bearer abc' }],
      ['a bare token without the scheme', { Authorization: 'eyJhbGciOiJIUzI1NiJ9.e30.x' }],
      // HTTP drops trailing whitespace from header values: "Bearer " arrives as "Bearer", no scheme prefix.
      ['a Bearer scheme with no token', { Authorization: 'Bearer ' }],
    ])('answers 401 Missing authentication for %s', async (_label, headers) => {
      const { app } = await buildTestApp();
      const res = await request(app).get(`${AUTH}/me`).set(headers);
      expectError(res, 401, 'Missing authentication');
    });

    it.each([
      ['get', '/me'],
      ['post', '/api-keys'],
      ['post', '/invite'],
      ['get', '/invites'],
      ['delete', '/invites/00000000-0000-4000-8000-000000000000'],
    ] as const)('guards %s %s', async (method, path) => {
      const { app } = await buildTestApp();
      const res = await request(app)[method](`${AUTH}${path}`);
      expectError(res, 401, 'Missing authentication');
    });

    it('guards every route the protected group defines, including any added later', async () => {
      const { app, assembly } = await buildTestApp();
      const routes = assembly.routes.filter((route) => route.group === 'protected');
      expect(routes.length).toBeGreaterThanOrEqual(5);
      for (const route of routes) {
        const res = await request(app)[route.method](route.path.replace(':id', 'some-id'));
        expectError(res, 401, 'Missing authentication');
      }
    });

    it('checks authentication before reading the body', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/invite`).set('Content-Type', 'application/json').send('{broken');
      expectError(res, 401, 'Missing authentication');
    });
  });
});
