import type { RequestListener } from 'node:http';
import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';

/** SQL as an operator runs it (psql, another service), as the schema's owner, outside the service. */
export type OperatorSql = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export interface RawSqlApp {
  readonly app: RequestListener;
  readonly operatorSql: OperatorSql;
  /**
   * The first answer to `send` after a change committed in SQL that is no longer a 200: on the
   * embedded database, the very next one (its LISTEN runs in the same process, before the SQL
   * returns); on Postgres, the notification crosses a socket, so the first within a deadline.
   */
  readonly afterChange: (send: () => Promise<Response>) => Promise<Response>;
  close(): Promise<void>;
}

interface Member {
  readonly owner: Account;
  readonly admin: Account;
  readonly key: string;
  readonly keyId: string;
}

/** An owner, and an admin with a token and a key, each used once so the instance holds them in memory. */
async function memberHeldInMemory(app: RequestListener): Promise<Member> {
  const owner = await signupOwner(app);
  const admin = await joinWithRole(app, owner, 'admin');
  const key = await createApiKey(app, admin);
  const listed = await request(app).get(`${AUTH}/api-keys`).set(bearer(owner)).expect(200);
  const keyId = (listed.body.api_keys as Array<{ id: string }>)[0]!.id;
  await request(app).get(`${AUTH}/me`).set(bearer(admin)).expect(200);
  await request(app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
  return { owner, admin, key, keyId };
}

/**
 * Each kind of credential change an operator can write by hand, with its effect on the service's
 * next request: the database's triggers announce it, whoever wrote it, and a role change or a
 * removal ends the member's tokens exactly as through the API.
 */
export function describeRawSqlChanges(name: string, open: () => Promise<RawSqlApp>): void {
  describe(`${name}: credential changes written in SQL`, () => {
    let ctx: RawSqlApp;
    let app: RequestListener;
    beforeAll(async () => {
      ctx = await open();
      app = ctx.app;
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });

    const withKey = (key: string) => () => request(app).get(`${AUTH}/me`).set('x-api-key', key);
    const withToken = (account: Account) => () => request(app).get(`${AUTH}/me`).set(bearer(account));

    it('a key revoked in SQL is refused like one revoked through the API', async () => {
      const { key, keyId } = await memberHeldInMemory(app);
      await ctx.operatorSql('update api_keys set revoked = true where id = $1', [keyId]);
      expectError(await ctx.afterChange(withKey(key)), 401, 'Invalid API key');
    });

    it('a key whose expiry is set in the past in SQL is refused', async () => {
      const { key, keyId } = await memberHeldInMemory(app);
      await ctx.operatorSql(`update api_keys set expires_at = now() - interval '1 minute' where id = $1`, [keyId]);
      expectError(await ctx.afterChange(withKey(key)), 401, 'Invalid API key');
    });

    it('a key deleted in SQL is refused', async () => {
      const { key, keyId } = await memberHeldInMemory(app);
      await ctx.operatorSql('delete from api_keys where id = $1', [keyId]);
      expectError(await ctx.afterChange(withKey(key)), 401, 'Invalid API key');
    });

    it('a role changed in SQL ends the old token, moves the auth version, and a new login carries the new role', async () => {
      const { admin, key } = await memberHeldInMemory(app);
      await ctx.operatorSql(`update users set role = 'viewer' where id = $1`, [admin.userId]);
      expectError(await ctx.afterChange(withToken(admin)), 401, 'Invalid or expired token');
      const [row] = await ctx.operatorSql('select role, auth_version from users where id = $1', [admin.userId]);
      expect(row).toEqual({ role: 'viewer', auth_version: 1 });
      // The key acts with the owner's current role at once.
      expect((await withKey(key)()).body.role).toBe('viewer');
      expectError(await request(app).get(`${AUTH}/invites`).set('x-api-key', key), 403, 'Requires admin role or higher');
      const login = await request(app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }).expect(200);
      const me = await request(app).get(`${AUTH}/me`).set('Authorization', `Bearer ${login.body.token as string}`).expect(200);
      expect(me.body.role).toBe('viewer');
    });

    it('setting in SQL the role a member already has changes nothing: the token stands', async () => {
      const { admin } = await memberHeldInMemory(app);
      await ctx.operatorSql('update users set role = role where id = $1', [admin.userId]);
      const [row] = await ctx.operatorSql('select auth_version from users where id = $1', [admin.userId]);
      expect(row).toEqual({ auth_version: 0 });
      await withToken(admin)().expect(200);
    });

    it('a member removed in SQL loses token and key, as through the API', async () => {
      const { admin, key } = await memberHeldInMemory(app);
      await ctx.operatorSql('update users set removed_at = now() where id = $1', [admin.userId]);
      expectError(await ctx.afterChange(withToken(admin)), 401, 'Invalid or expired token');
      expectError(await withKey(key)(), 401, 'Invalid API key');
      const [row] = await ctx.operatorSql('select auth_version from users where id = $1', [admin.userId]);
      expect(row).toEqual({ auth_version: 1 });
    });

    it('V7.4.2: a member suspended in SQL loses token and key, as through SCIM; lifting it in SQL brings the key back, not the token', async () => {
      const { admin, key } = await memberHeldInMemory(app);
      await ctx.operatorSql('update users set suspended_at = now() where id = $1', [admin.userId]);
      expectError(await ctx.afterChange(withToken(admin)), 401, 'Invalid or expired token');
      expectError(await withKey(key)(), 401, 'Invalid API key');
      expectError(await request(app).post(`${AUTH}/login`).send({ email: admin.email, password: PASSWORD }), 401, 'Invalid credentials');
      const [row] = await ctx.operatorSql('select auth_version from users where id = $1', [admin.userId]);
      expect(row).toEqual({ auth_version: 1 });

      await ctx.operatorSql('update users set suspended_at = null where id = $1', [admin.userId]);
      await withKey(key)().expect(200);
      expectError(await withToken(admin)(), 401, 'Invalid or expired token');
    });

    it('an auth version raised in SQL (a forced logout) ends the token and keeps the key', async () => {
      const { admin, key } = await memberHeldInMemory(app);
      await ctx.operatorSql('update users set auth_version = auth_version + 1 where id = $1', [admin.userId]);
      expectError(await ctx.afterChange(withToken(admin)), 401, 'Invalid or expired token');
      await withKey(key)().expect(200);
    });

    it('a member deleted in SQL, keys first, loses token and key (their e-mail links go with them)', async () => {
      const { admin, key } = await memberHeldInMemory(app);
      await ctx.operatorSql('delete from api_keys where user_id = $1', [admin.userId]);
      // Every member has a link of their own from signup (the address's verification): it cascades.
      await ctx.operatorSql('delete from users where id = $1', [admin.userId]);
      expectError(await ctx.afterChange(withToken(admin)), 401, 'Invalid or expired token');
      expectError(await withKey(key)(), 401, 'Invalid API key');
    });

    it('a change rolled back in SQL changes nothing: key, token and auth version stand', async () => {
      const { admin, key, keyId } = await memberHeldInMemory(app);
      await expect(ctx.operatorSql(`
        do $$ begin
          update api_keys set revoked = true where id = '${keyId}';
          update users set role = 'viewer' where id = '${admin.userId}';
          raise exception 'changed my mind';
        end $$`)).rejects.toThrow('changed my mind');
      await withKey(key)().expect(200);
      expect((await withToken(admin)().expect(200)).body.role).toBe('admin');
      const [row] = await ctx.operatorSql('select auth_version from users where id = $1', [admin.userId]);
      expect(row).toEqual({ auth_version: 0 });
    });
  });
}
