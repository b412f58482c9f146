import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import jwt from 'jsonwebtoken';
import { request } from '../support/contract-request';
import { AUTH, bearer, createApiKey, createInvite, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';
import { TEST_JWT_SECRET } from '../support/test-use-cases';

export interface LifecycleApp {
  readonly app: RequestListener;
  /** Writes the API keys' uses gathered so far, as the instance does when its interval is over or at shutdown. */
  flushKeyUsage(): Promise<void>;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

async function keyOf(app: RequestListener, admin: Account, body?: object) {
  const req = request(app).post(`${AUTH}/api-keys`).set(bearer(admin));
  const res = body === undefined ? await req : await req.send(body);
  expect(res.status).toBe(201);
  return res.body as { api_key: string; prefix: string; id: string; name: string | null; expires_at: string | null };
}

/** Logs in again: a role change ends the member's earlier tokens. */
async function relogin(app: RequestListener, account: Account): Promise<Account> {
  const res = await request(app).post(`${AUTH}/login`).send({ email: account.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { ...account, token: res.body.token as string };
}

/**
 * Every endpoint of the key and member lifecycle, over HTTP, with the contract's exact statuses and
 * messages. Run on memory storage and on each SQL backend.
 */
export function describeLifecycle(name: string, open: () => Promise<LifecycleApp>): void {
  describe(`${name}: keys and members over their whole life`, () => {
    let ctx: LifecycleApp;
    let app: RequestListener;
    beforeAll(async () => {
      ctx = await open();
      app = ctx.app;
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });

    describe('API keys', () => {
      it('creates a key without a body exactly as before, and a named, expiring one with a body', async () => {
        const owner = await signupOwner(app);
        const plain = await keyOf(app, owner);
        expect(plain).toEqual({
          api_key: expect.stringMatching(/^pcls_[0-9a-f]{32}$/), prefix: plain.api_key.slice(0, 13), id: expect.any(String), name: null, expires_at: null,
        });
        const before = Date.now();
        const named = await keyOf(app, owner, { name: 'CI deploy', expires_in_days: 30 });
        expect(named.name).toBe('CI deploy');
        const expiresIn = Date.parse(named.expires_at!) - before;
        expect(expiresIn).toBeGreaterThanOrEqual(30 * DAY_MS - 5000);
        expect(expiresIn).toBeLessThanOrEqual(30 * DAY_MS + 5000);
      });

      it.each([
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(101) }, 'name'],
        [{ name: 42 }, 'name'],
        [{ expires_in_days: 0 }, 'expires_in_days'],
        [{ expires_in_days: 366 }, 'expires_in_days'],
        [{ expires_in_days: 1.5 }, 'expires_in_days'],
        [{ expires_in_days: '30' }, 'expires_in_days'],
        [{ scopes: ['all'] }, 'scopes'],
      ])('refuses the body %j with 400 naming %s', async (body, field) => {
        const owner = await signupOwner(app);
        const res = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).send(body);
        expect(res.status).toBe(400);
        expect(res.body.error).toContain(field);
      });

      it('lists the tenant\'s keys newest first, with every field but the hash, for admins only', async () => {
        const owner = await signupOwner(app);
        const first = await keyOf(app, owner, { name: 'first' });
        const second = await keyOf(app, owner);
        await keyOf(app, await signupOwner(app));

        const res = await request(app).get(`${AUTH}/api-keys`).set(bearer(owner));
        expect(res.status).toBe(200);
        expect(res.body.api_keys).toEqual([
          expect.objectContaining({ id: second.id }),
          {
            id: first.id, prefix: first.prefix, name: 'first', created_by: owner.userId, created_at: expect.any(String),
            last_used_at: null, expires_at: null, revoked: false,
          },
        ]);
        const member = await joinWithRole(app, owner, 'member');
        expectError(await request(app).get(`${AUTH}/api-keys`).set(bearer(member)), 403, 'Requires admin role or higher');
      });

      it('revokes a key: 200, refused at once, still listed as revoked', async () => {
        const owner = await signupOwner(app);
        const key = await keyOf(app, owner);
        await request(app).get(`${AUTH}/me`).set('x-api-key', key.api_key).expect(200);

        const res = await request(app).delete(`${AUTH}/api-keys/${key.id}`).set(bearer(owner));
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { revoked: true } });
        expectError(await request(app).get(`${AUTH}/me`).set('x-api-key', key.api_key), 401, 'Invalid API key');
        const listed = await request(app).get(`${AUTH}/api-keys`).set(bearer(owner));
        expect(listed.body.api_keys).toEqual([expect.objectContaining({ id: key.id, revoked: true })]);
      });

      it("answers another tenant's, unknown and malformed ids with 404 API key not found", async () => {
        const owner = await signupOwner(app);
        const other = await signupOwner(app);
        const key = await keyOf(app, other);
        for (const id of [key.id, randomUUID(), 'not-a-uuid']) {
          expectError(await request(app).delete(`${AUTH}/api-keys/${id}`).set(bearer(owner)), 404, 'API key not found');
        }
        await request(app).get(`${AUTH}/me`).set('x-api-key', key.api_key).expect(200);
      });

      it('keeps last_used_at off the request path: written with the instance\'s next batch', async () => {
        const owner = await signupOwner(app);
        const key = await keyOf(app, owner);
        const before = Date.now();
        for (let i = 0; i < 3; i += 1) await request(app).get(`${AUTH}/me`).set('x-api-key', key.api_key).expect(200);
        const lastUsed = async () => (await request(app).get(`${AUTH}/api-keys`).set(bearer(owner))).body.api_keys[0].last_used_at as string | null;
        expect(await lastUsed()).toBeNull();

        await ctx.flushKeyUsage();
        expect(Date.parse((await lastUsed())!)).toBeGreaterThanOrEqual(before - 1000);
      });
    });

    describe('members', () => {
      it('lists the tenant\'s members, oldest first, for admins only', async () => {
        const owner = await signupOwner(app);
        const viewer = await joinWithRole(app, owner, 'viewer');
        const res = await request(app).get(`${AUTH}/members`).set(bearer(owner));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          members: [
            { user_id: owner.userId, email: owner.email, role: 'owner', created_at: expect.any(String) },
            { user_id: viewer.userId, email: viewer.email, role: 'viewer', created_at: expect.any(String) },
          ],
        });
        expectError(await request(app).get(`${AUTH}/members`).set(bearer(viewer)), 403, 'Requires admin role or higher');
      });

      it('changes a role: the old token is refused, a new login carries the new role', async () => {
        const owner = await signupOwner(app);
        const member = await joinWithRole(app, owner, 'member');
        const res = await request(app).patch(`${AUTH}/members/${member.userId}`).set(bearer(owner)).send({ role: 'admin' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ user_id: member.userId, email: member.email, role: 'admin', created_at: expect.any(String) });

        expectError(await request(app).get(`${AUTH}/me`).set(bearer(member)), 401, 'Invalid or expired token');
        const again = await relogin(app, member);
        expect((await request(app).get(`${AUTH}/me`).set(bearer(again))).body.role).toBe('admin');
      });

      it('refuses each broken rule with its own status and message', async () => {
        const owner = await signupOwner(app);
        const admin = await joinWithRole(app, owner, 'admin');
        const member = await joinWithRole(app, owner, 'member');
        const patch = (caller: Account, id: string, body: object) => request(app).patch(`${AUTH}/members/${id}`).set(bearer(caller)).send(body);

        expectError(await patch(admin, member.userId, { role: 'owner' }), 403, 'Cannot grant a role above your own');
        expectError(await patch(admin, owner.userId, { role: 'member' }), 403, 'Only an owner can change, remove or grant the owner role');
        expectError(await request(app).delete(`${AUTH}/members/${owner.userId}`).set(bearer(admin)), 403, 'Only an owner can change, remove or grant the owner role');
        expectError(await patch(owner, owner.userId, { role: 'admin' }), 409, 'The last owner cannot be demoted or removed');
        expectError(await request(app).delete(`${AUTH}/members/${owner.userId}`).set(bearer(owner)), 409, 'The last owner cannot be demoted or removed');
        expectError(await patch(member, admin.userId, { role: 'viewer' }), 403, 'Requires admin role or higher');
        for (const body of [{ role: 'superuser' }, {}, { role: 'admin', tenant_id: randomUUID() }]) {
          expect((await patch(owner, member.userId, body)).status).toBe(400);
        }
        // Nothing above changed anyone.
        const roles = (await request(app).get(`${AUTH}/members`).set(bearer(owner))).body.members.map((m: { role: string }) => m.role);
        expect(roles).toEqual(['owner', 'admin', 'member']);
      });

      it("answers another tenant's, unknown and malformed ids with 404 Member not found", async () => {
        const owner = await signupOwner(app);
        const other = await signupOwner(app);
        for (const id of [other.userId, randomUUID(), 'not-a-uuid']) {
          expectError(await request(app).patch(`${AUTH}/members/${id}`).set(bearer(owner)).send({ role: 'viewer' }), 404, 'Member not found');
          expectError(await request(app).delete(`${AUTH}/members/${id}`).set(bearer(owner)), 404, 'Member not found');
        }
        expect((await request(app).get(`${AUTH}/me`).set(bearer(other))).body.role).toBe('owner');
      });

      it("removes a member: their token and keys stop at once, keys listed as revoked", async () => {
        const owner = await signupOwner(app);
        const admin = await joinWithRole(app, owner, 'admin');
        const key = await createApiKey(app, admin);
        await request(app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);

        const res = await request(app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner));
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { removed: true } });
        expectError(await request(app).get(`${AUTH}/me`).set(bearer(admin)), 401, 'Invalid or expired token');
        expectError(await request(app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
        expectError(await request(app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }), 401, 'Invalid credentials');
        const members = await request(app).get(`${AUTH}/members`).set(bearer(owner));
        expect(members.body.members.map((m: { user_id: string }) => m.user_id)).toEqual([owner.userId]);
        const keys = await request(app).get(`${AUTH}/api-keys`).set(bearer(owner));
        expect(keys.body.api_keys).toEqual([expect.objectContaining({ created_by: admin.userId, revoked: true })]);
      });
    });

    describe("a member's pending invites", () => {
      const signupWith = (token: string) =>
        request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail('late'), password: PASSWORD, invite_token: token });

      it('a demotion revokes the ones above the new role: accepting one is 400 Invalid invite token', async () => {
        const owner = await signupOwner(app);
        const admin = await joinWithRole(app, owner, 'admin');
        const asAdmin = await createInvite(app, admin, { role: 'admin' });
        const asMember = await createInvite(app, admin, { role: 'member' });

        await request(app).patch(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).send({ role: 'member' }).expect(200);

        expectError(await signupWith(asAdmin.token), 400, 'Invalid invite token');
        const listed = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
        expect(listed.body.invites.map((i: { email: string }) => i.email)).toEqual([asMember.email]);
        expect((await request(app).post(`${AUTH}/signup`).send({ email: asMember.email, password: PASSWORD, invite_token: asMember.token })).status).toBe(201);
      });

      it('a removal revokes them all', async () => {
        const owner = await signupOwner(app);
        const admin = await joinWithRole(app, owner, 'admin');
        const invites = [await createInvite(app, admin, { role: 'admin' }), await createInvite(app, admin, { role: 'viewer' })];

        await request(app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);

        for (const invite of invites) expectError(await signupWith(invite.token), 400, 'Invalid invite token');
        expect((await request(app).get(`${AUTH}/invites`).set(bearer(owner))).body.invites).toEqual([]);
      });
    });

    describe('password', () => {
      it('changes the password with the current one, ending earlier tokens', async () => {
        const owner = await signupOwner(app);
        const wrong = await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: 'not it at all', new_password: 'new passphrase' });
        expectError(wrong, 403, 'Current password is incorrect');
        expect((await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD, new_password: 'short' })).status).toBe(400);
        expect((await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD })).status).toBe(400);

        const res = await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD, new_password: 'new passphrase' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ token: expect.any(String), expires_in: '24h' });
        expectError(await request(app).get(`${AUTH}/me`).set(bearer(owner)), 401, 'Invalid or expired token');
        await request(app).get(`${AUTH}/me`).set('authorization', `Bearer ${res.body.token as string}`).expect(200);
        await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: 'new passphrase' }).expect(200);
        expectError(await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD }), 401, 'Invalid credentials');
      });

      it('needs authentication like every protected route', async () => {
        expectError(await request(app).post(`${AUTH}/password`).send({ current_password: PASSWORD, new_password: 'new passphrase' }), 401, 'Missing authentication');
      });
    });

    it('answers a correctly signed token for a tenant and user that do not exist with 401, never 500', async () => {
      const ghost = jwt.sign({ tenantId: randomUUID(), userId: randomUUID(), email: 'ghost@example.com', role: 'owner', authVersion: 0 },
        TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
      const auth = { authorization: `Bearer ${ghost}` };
      expectError(await request(app).post(`${AUTH}/invite`).set(auth).send({ email: 'x@example.com' }), 401, 'Invalid or expired token');
      expectError(await request(app).post(`${AUTH}/api-keys`).set(auth), 401, 'Invalid or expired token');
      expectError(await request(app).get(`${AUTH}/me`).set(auth), 401, 'Invalid or expired token');
    });
  });
}
