import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { describeLifecycle } from './lifecycle-flow';

const ROUNDS = 5;
/** The promise of the feature: a change on one instance is refused on every other within this. */
const PROPAGATION_MS = 1_000;

async function secondOwner(ctx: DatabaseApp, owner: Account): Promise<Account> {
  const admin = await joinWithRole(ctx.app, owner, 'admin');
  await request(ctx.app).patch(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).send({ role: 'owner' }).expect(200);
  const login = await request(ctx.app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }).expect(200);
  return { ...admin, role: 'owner', token: login.body.token as string };
}

async function ownerCount(ctx: DatabaseApp, tenantId: string): Promise<number> {
  const rows = await ctx.db.selectFrom('users').select('id')
    .where('tenant_id', '=', tenantId).where('role', '=', 'owner').where('removed_at', 'is', null).execute();
  return rows.length;
}

/** Sends the request until its status is `status`, and answers how long that took; fails past the deadline. */
async function msUntil(send: () => Promise<{ status: number }>, status: number, deadlineMs = 3 * PROPAGATION_MS): Promise<number> {
  const start = Date.now();
  for (;;) {
    if ((await send()).status === status) return Date.now() - start;
    if (Date.now() - start > deadlineMs) throw new Error(`still not ${status} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeIfPostgres('Postgres: key and member lifecycle', (url) => {
  describeLifecycle('Postgres', () => databaseApp({ postgres: url }));

  describe('races on one instance', () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await databaseApp({ postgres: url });
    });
    afterAll(async () => {
      await ctx?.close();
    });

    it('two owners demoting each other at once leave exactly one owner', async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const first = await signupOwner(ctx.app);
        const second = await secondOwner(ctx, first);
        const [a, b] = await Promise.all([
          request(ctx.app).patch(`${AUTH}/members/${second.userId}`).set(bearer(first)).send({ role: 'admin' }),
          request(ctx.app).patch(`${AUTH}/members/${first.userId}`).set(bearer(second)).send({ role: 'admin' }),
        ]);
        // The loser is no longer an owner by the time the lock lets it read, so it may not change one
        // (403); or the winner committed before the loser's request was even authenticated, and the
        // demotion has already ended the loser's token (401).
        const statuses = [a.status, b.status].sort();
        expect(statuses[0]).toBe(200);
        expect([401, 403]).toContain(statuses[1]);
        expect(await ownerCount(ctx, first.tenantId)).toBe(1);
      }
    });

    it('two owners stepping down at once leave exactly one owner', async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const first = await signupOwner(ctx.app);
        const second = await secondOwner(ctx, first);
        const responses = await Promise.all([first, second].map((owner) =>
          request(ctx.app).patch(`${AUTH}/members/${owner.userId}`).set(bearer(owner)).send({ role: 'member' })));
        expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
        expectError(responses.find((r) => r.status === 409)!, 409, 'The last owner cannot be demoted or removed');
        expect(await ownerCount(ctx, first.tenantId)).toBe(1);
      }
    });

    it('removing both owners at once removes one', async () => {
      const first = await signupOwner(ctx.app);
      const second = await secondOwner(ctx, first);
      const responses = await Promise.all([
        request(ctx.app).delete(`${AUTH}/members/${second.userId}`).set(bearer(first)),
        request(ctx.app).delete(`${AUTH}/members/${first.userId}`).set(bearer(second)),
      ]);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      expect(await ownerCount(ctx, first.tenantId)).toBe(1);
    });
  });

  describe('two instances on one database', () => {
    let a: DatabaseApp;
    let b: DatabaseApp;
    let deaf: DatabaseApp;
    beforeAll(async () => {
      [a, b, deaf] = await Promise.all([
        databaseApp({ postgres: url }),
        databaseApp({ postgres: url }),
        databaseApp({ postgres: url }, { changeFeed: false }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close(), deaf?.close()]);
    });

    it(`a key revoked on A is refused on B within ${PROPAGATION_MS} ms, though B held it in memory`, async () => {
      const owner = await signupOwner(a.app);
      const created = await request(a.app).post(`${AUTH}/api-keys`).set(bearer(owner)).expect(201);
      const key = created.body.api_key as string;
      await request(b.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
      await request(deaf.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);

      await request(a.app).delete(`${AUTH}/api-keys/${created.body.id as string}`).set(bearer(owner)).expect(200);

      expectError(await request(a.app).get(`${AUTH}/me`).set('x-api-key', key), 401, 'Invalid API key');
      expect(await msUntil(() => request(b.app).get(`${AUTH}/me`).set('x-api-key', key), 401)).toBeLessThan(PROPAGATION_MS);
      // The control: an instance that does not listen still answers from memory, so B's refusal is the feed's doing.
      await request(deaf.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
    });

    it(`a session ended by logout on A is refused on B within ${PROPAGATION_MS} ms, though B held it in memory (V7.4.1)`, async () => {
      const owner = await signupOwner(a.app);
      const other = await request(a.app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD }).expect(200);
      await request(b.app).get(`${AUTH}/me`).set(bearer(owner)).expect(200);
      await request(deaf.app).get(`${AUTH}/me`).set(bearer(owner)).expect(200);

      await request(a.app).post(`${AUTH}/logout`).set(bearer(owner)).expect(204);

      expectError(await request(a.app).get(`${AUTH}/me`).set(bearer(owner)), 401, 'Invalid or expired token');
      expect(await msUntil(() => request(b.app).get(`${AUTH}/me`).set(bearer(owner)), 401)).toBeLessThan(PROPAGATION_MS);
      // The member's other session goes on everywhere; an instance that does not listen still answers from memory.
      await request(b.app).get(`${AUTH}/me`).set(bearer({ token: other.body.token as string })).expect(200);
      await request(deaf.app).get(`${AUTH}/me`).set(bearer(owner)).expect(200);
    });

    it(`a member removed on A loses token and key on B within ${PROPAGATION_MS} ms`, async () => {
      const owner = await signupOwner(a.app);
      const admin = await joinWithRole(a.app, owner, 'admin');
      const key = await createApiKey(a.app, admin);
      await request(b.app).get(`${AUTH}/me`).set(bearer(admin)).expect(200);
      await request(b.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);

      await request(a.app).delete(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).expect(200);

      expect(await msUntil(() => request(b.app).get(`${AUTH}/me`).set(bearer(admin)), 401)).toBeLessThan(PROPAGATION_MS);
      expect(await msUntil(() => request(b.app).get(`${AUTH}/me`).set('x-api-key', key), 401)).toBeLessThan(PROPAGATION_MS);
    });

    it(`a role changed on A ends the old token on B, and B's key requests take the new role, within ${PROPAGATION_MS} ms`, async () => {
      const owner = await signupOwner(a.app);
      const admin = await joinWithRole(a.app, owner, 'admin');
      const key = await createApiKey(a.app, admin);
      await request(b.app).post(`${AUTH}/invite`).set(bearer(admin)).send({ email: `x-${Date.now()}@example.com` }).expect(201);
      await request(b.app).get(`${AUTH}/invites`).set('x-api-key', key).expect(200);

      await request(a.app).patch(`${AUTH}/members/${admin.userId}`).set(bearer(owner)).send({ role: 'viewer' }).expect(200);

      expect(await msUntil(() => request(b.app).get(`${AUTH}/me`).set(bearer(admin)), 401)).toBeLessThan(PROPAGATION_MS);
      expect(await msUntil(() => request(b.app).get(`${AUTH}/invites`).set('x-api-key', key), 403)).toBeLessThan(PROPAGATION_MS);
      expect((await request(b.app).get(`${AUTH}/me`).set('x-api-key', key)).body.role).toBe('viewer');
    });
  });
});
