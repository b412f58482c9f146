import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { request } from '../support/contract-request';
import { AUTH, bearer, createInvite, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

export interface AuditApp {
  readonly app: RequestListener;
  close(): Promise<void>;
}

interface EventJson {
  id: string;
  tenant_id: string | null;
  actor_user_id: string | null;
  actor_auth: string;
  action: string;
  target_id: string | null;
  client_ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  occurred_at: string;
  details: Record<string, unknown>;
}

async function events(app: RequestListener, admin: Account, query = ''): Promise<EventJson[]> {
  const res = await request(app).get(`${AUTH}/audit-events${query}`).set(bearer(admin));
  expect(res.status).toBe(200);
  return res.body.events as EventJson[];
}

/** Every page, following next_cursor, with the page size given. */
async function allPages(app: RequestListener, admin: Account, limit: number, filter = ''): Promise<EventJson[]> {
  const seen: EventJson[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const query: string = `?limit=${limit}${filter}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await request(app).get(`${AUTH}/audit-events${query}`).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.events.length).toBeLessThanOrEqual(limit);
    seen.push(...(res.body.events as EventJson[]));
    cursor = res.body.next_cursor as string | null;
    if (cursor === null) return seen;
  }
  throw new Error('pagination did not end');
}

/**
 * The audit trail over HTTP: each auth event leaves its record with who, how, what, from where;
 * the list is the caller's tenant only, newest first, paged by cursor, filtered by action and actor.
 * Run on memory storage and on each SQL backend.
 */
export function describeAuditTrail(name: string, open: () => Promise<AuditApp>): void {
  describe(`${name}: the audit trail`, () => {
    let ctx: AuditApp;
    let app: RequestListener;
    beforeAll(async () => {
      ctx = await open();
      app = ctx.app;
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });

    test('a tenant\'s life leaves one event per auth event, newest first, with who, how and from where', async () => {
      const owner = await signupOwner(app);
      const requestId = `audit-${randomUUID()}`;
      const invite = await createInvite(app, owner, { role: 'member' });
      const joined = await request(app).post(`${AUTH}/signup`).set('user-agent', 'audit-test/1.0')
        .send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
      expect(joined.status).toBe(201);
      const member = (await request(app).post(`${AUTH}/login`).send({ email: invite.email, password: PASSWORD })).body.token as string;
      await request(app).post(`${AUTH}/login`).send({ email: invite.email, password: 'wrong password here' }).expect(401);
      const key = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).set('x-request-id', requestId).send({ name: 'ci' });
      expect(key.status).toBe(201);
      await request(app).delete(`${AUTH}/api-keys/${key.body.id}`).set('x-api-key', key.body.api_key as string).expect(200);
      await request(app).get(`${AUTH}/invites`).set({ Authorization: `Bearer ${member}` }).expect(403);
      const memberId = (await events(app, owner, '?action=signup.invite_accepted'))[0]!.target_id!;
      await request(app).patch(`${AUTH}/members/${memberId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);
      await request(app).delete(`${AUTH}/members/${memberId}`).set(bearer(owner)).expect(200);

      const trail = await events(app, owner);
      expect(trail.map((e) => e.action)).toEqual([
        'member.removed',
        'session.ended',
        'member.role_changed',
        'access.denied',
        'api_key.revoked',
        'api_key.created',
        'login.failed',
        'session.started',
        'login.succeeded',
        'session.started',
        'invite.accepted',
        'signup.invite_accepted',
        'invite.created',
        'session.started',
        'signup.tenant_created',
      ]);
      for (const event of trail) expect(event.tenant_id).toBe(owner.tenantId);
      const byAction = Object.fromEntries(trail.map((e) => [e.action, e]));

      expect(byAction['signup.tenant_created']).toMatchObject({ actor_user_id: owner.userId, actor_auth: 'none', target_id: owner.userId });
      expect(byAction['invite.accepted']).toMatchObject({ actor_user_id: memberId, actor_auth: 'none', user_agent: 'audit-test/1.0' });
      expect(byAction['login.failed']).toMatchObject({ actor_user_id: null, actor_auth: 'none', target_id: memberId, details: { reason: 'invalid_credentials' } });
      expect(byAction['api_key.created']).toMatchObject({
        actor_user_id: owner.userId, actor_auth: 'jwt', target_id: key.body.id, request_id: requestId,
        details: { prefix: key.body.prefix, name: 'ci', expires_at: null },
      });
      expect(byAction['api_key.revoked']).toMatchObject({
        actor_user_id: owner.userId, actor_auth: 'api_key', target_id: key.body.id, details: { prefix: key.body.prefix, name: 'ci' },
      });
      expect(byAction['access.denied']).toMatchObject({
        actor_user_id: memberId, actor_auth: 'jwt', target_id: null, details: { reason: 'role', role: 'member', required_role: 'admin' },
      });
      expect(byAction['member.role_changed']).toMatchObject({ target_id: memberId, details: { from: 'member', to: 'viewer' } });
      expect(byAction['member.removed']).toMatchObject({ target_id: memberId, details: { email: invite.email, role: 'viewer', api_keys_revoked: 0 } });
      for (const event of trail) {
        expect(event.client_ip).toEqual(expect.any(String));
        expect(event.request_id).toEqual(expect.any(String));
        expect(Date.parse(event.occurred_at)).not.toBeNaN();
      }

      // Nothing secret anywhere in the trail: not the key, a token, an invite token, a password or a hash.
      const text = JSON.stringify(trail);
      for (const secret of [key.body.api_key as string, owner.token, member, invite.token, PASSWORD, 'wrong password here', 'scrypt$']) {
        expect(text).not.toContain(secret);
      }
    });

    test('invite revocation, password change and a request for another tenant\'s record are recorded', async () => {
      const owner = await signupOwner(app);
      const other = await signupOwner(app);
      await createInvite(app, owner);
      const [created] = await events(app, owner, '?action=invite.created');
      await request(app).delete(`${AUTH}/invites/${created!.target_id}`).set(bearer(owner)).expect(200);
      // The other tenant names owner's records: 404 for it, an access.denied for a tenant reason in its trail.
      const foreignKey = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner));
      await request(app).delete(`${AUTH}/api-keys/${foreignKey.body.id}`).set(bearer(other)).expect(404);
      const changed = await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD, new_password: 'another good password' });
      expect(changed.status).toBe(200);
      const renewed = { ...owner, token: changed.body.token as string };

      expect((await events(app, renewed, '?action=invite.revoked'))[0]).toMatchObject({ target_id: created!.target_id, actor_user_id: owner.userId });
      expect((await events(app, renewed, '?action=password.changed'))[0]).toMatchObject({ target_id: owner.userId, actor_auth: 'jwt' });
      const denied = await events(app, other, '?action=access.denied');
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({ actor_user_id: other.userId, target_id: foreignKey.body.id, details: { reason: 'tenant', resource: 'api_key' } });
      expect(await events(app, renewed, '?action=access.denied')).toEqual([]);
    });

    test('revoking a revoked key answers 200 again but records one api_key.revoked only', async () => {
      const owner = await signupOwner(app);
      const key = await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).expect(201);
      for (let i = 0; i < 3; i += 1) {
        const res = await request(app).delete(`${AUTH}/api-keys/${key.body.id}`).set(bearer(owner));
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { revoked: true } });
      }
      const revoked = await events(app, owner, '?action=api_key.revoked');
      expect(revoked).toHaveLength(1);
      expect(revoked[0]).toMatchObject({ target_id: key.body.id });
    });

    test('a 404 by id leaves the same access.denied whoever holds the id (another tenant, the caller\'s own tenant, nobody): the trail is no oracle', async () => {
      const owner = await signupOwner(app);
      const other = await signupOwner(app);
      const otherKey = await request(app).post(`${AUTH}/api-keys`).set(bearer(other)).expect(201);
      await createInvite(app, other);
      const [otherInvite] = await events(app, other, '?action=invite.created');
      // Own tenant: an invite deleted, then named again; a member removed, then named again.
      await createInvite(app, owner);
      const [pending] = await events(app, owner, '?action=invite.created');
      await request(app).delete(`${AUTH}/invites/${pending!.target_id}`).set(bearer(owner)).expect(200);
      const member = await joinWithRole(app, owner, 'member');
      await request(app).delete(`${AUTH}/members/${member.userId}`).set(bearer(owner)).expect(200);

      // Each kind of record, named by an id another tenant holds, by an id of the caller's own that is
      // gone, and by an id nobody holds: the same 404 each time.
      const named = [
        { path: 'api-keys', resource: 'api_key', message: 'API key not found', ids: [otherKey.body.id as string, randomUUID()] },
        { path: 'invites', resource: 'invite', message: 'Invite not found', ids: [otherInvite!.target_id!, pending!.target_id!, randomUUID()] },
        { path: 'members', resource: 'member', message: 'Member not found', ids: [other.userId, member.userId, randomUUID()] },
      ];
      for (const { path, message, ids } of named) {
        for (const id of ids) expectError(await request(app).delete(`${AUTH}/${path}/${id}`).set(bearer(owner)), 404, message);
      }

      // One event per 404, alike in everything but the id named and the request's own facts.
      const denied = await events(app, owner, '?action=access.denied');
      const byTarget = new Map(denied.map((event) => [event.target_id, event]));
      const apartFromTheRequest = ({ id: _id, target_id: _target, occurred_at: _at, request_id: _request, ...rest }: EventJson) => rest;
      for (const { resource, ids } of named) {
        const [first, ...rest] = ids.map((id) => byTarget.get(id));
        expect(first).toMatchObject({ actor_user_id: owner.userId, actor_auth: 'jwt', details: { reason: 'tenant', resource } });
        for (const event of rest) expect(apartFromTheRequest(event!)).toEqual(apartFromTheRequest(first!));
      }
      expect(denied).toHaveLength(named.reduce((count, { ids }) => count + ids.length, 0));
      // The other tenant's trail shows none of it.
      expect(await events(app, other, '?action=access.denied')).toEqual([]);
    });

    test('a member change refused by a rule on roles is recorded as access.denied, naming the rule and the member', async () => {
      const owner = await signupOwner(app);
      const admin = await joinWithRole(app, owner, 'admin');
      expectError(await request(app).patch(`${AUTH}/members/${owner.userId}`).set(bearer(admin)).send({ role: 'viewer' }), 403, 'Only an owner can change, remove or grant the owner role');
      const denied = await events(app, owner, '?action=access.denied');
      expect(denied).toHaveLength(1);
      expect(denied[0]).toMatchObject({
        actor_user_id: admin.userId, actor_auth: 'jwt', target_id: owner.userId,
        details: { reason: 'role', role: 'admin', rule: 'owner_role_required' },
      });
      expect(await events(app, owner, '?action=member.role_changed')).toEqual([]);
    });

    test('a refused change leaves no event', async () => {
      const owner = await signupOwner(app);
      const before = await events(app, owner);
      expectError(await request(app).patch(`${AUTH}/members/${owner.userId}`).set(bearer(owner)).send({ role: 'admin' }), 409, 'The last owner cannot be demoted or removed');
      expectError(await request(app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: 'not my password', new_password: 'another good password' }), 403, 'Current password is incorrect');
      expect(await events(app, owner)).toEqual(before);
    });

    test('pages follow next_cursor with no gap or repeat, and filter by actor and action', async () => {
      const owner = await signupOwner(app);
      const admin = await joinWithRole(app, owner, 'admin');
      for (let i = 0; i < 4; i += 1) await request(app).post(`${AUTH}/api-keys`).set(bearer(owner)).expect(201);
      for (let i = 0; i < 3; i += 1) await request(app).post(`${AUTH}/api-keys`).set(bearer(admin)).expect(201);

      const everything = await events(app, owner, '?limit=100');
      for (const limit of [1, 2, 3, 100]) {
        expect((await allPages(app, owner, limit)).map((e) => e.id)).toEqual(everything.map((e) => e.id));
      }
      const byAdmin = await allPages(app, owner, 2, `&action=api_key.created&actor=${admin.userId}`);
      expect(byAdmin).toHaveLength(3);
      for (const event of byAdmin) expect(event).toMatchObject({ action: 'api_key.created', actor_user_id: admin.userId });
      expect(await events(app, owner, `?actor=${randomUUID()}`)).toEqual([]);
    });

    test('the list is admin+ and the caller\'s tenant only', async () => {
      const owner = await signupOwner(app);
      const other = await signupOwner(app);
      const member = await joinWithRole(app, owner, 'member');
      expectError(await request(app).get(`${AUTH}/audit-events`).set(bearer(member)), 403, 'Requires admin role or higher');
      const mine = await events(app, owner, '?limit=100');
      const theirs = await events(app, other, '?limit=100');
      expect(mine.every((e) => e.tenant_id === owner.tenantId)).toBe(true);
      expect(theirs.every((e) => e.tenant_id === other.tenantId)).toBe(true);
      expect(theirs.map((e) => e.action)).toEqual(['session.started', 'signup.tenant_created']);
    });

    test('a failed login for an unknown e-mail is kept but listed to no tenant', async () => {
      const owner = await signupOwner(app);
      await request(app).post(`${AUTH}/login`).send({ email: uniqueEmail('nobody'), password: PASSWORD }).expect(401);
      expect(await events(app, owner, '?action=login.failed')).toEqual([]);
    });

    test('bad queries are 400 with the parameter named, never a 500', async () => {
      const owner = await signupOwner(app);
      const cases: [string, string][] = [
        ['?limit=0', 'limit must not be less than 1'],
        ['?limit=101', 'limit must not be greater than 100'],
        ['?limit=ten', 'limit must be an integer number'],
        ['?action=login.maybe', 'action must be one of the following values'],
        ['?actor=not-a-uuid', 'actor must be a UUID'],
        ['?cursor=***', 'cursor must be a cursor returned by this endpoint'],
        ['?cursor=bm90LWEtY3Vyc29y', 'Invalid cursor'],
        ['?limit=1&limit=2', 'limit must be given once'],
        ['?sort=asc', 'property sort should not exist'],
      ];
      for (const [query, message] of cases) {
        const res = await request(app).get(`${AUTH}/audit-events${query}`).set(bearer(owner));
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body.error).toContain(message);
      }
    });

    test('no endpoint changes or deletes events', async () => {
      const owner = await signupOwner(app);
      const before = await events(app, owner);
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        expectError(await request(app)[method](`${AUTH}/audit-events`).set(bearer(owner)), 404, 'Not found');
        expectError(await request(app)[method](`${AUTH}/audit-events/${before[0]!.id}`).set(bearer(owner)), 404, 'Not found');
      }
      expect(await events(app, owner)).toEqual(before);
    });
  });
}
