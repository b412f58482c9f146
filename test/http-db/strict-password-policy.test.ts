import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';

const API = '/api/v1/auth';
const PASSWORD = 'correct horse battery';

/**
 * The strict policy reads the tenant's name behind the tenant walls, as the serving login: the
 * inviting tenant's before an invitation signup's transaction, the member's own at a change. These
 * cases prove those reads on the databases the service runs on (the HTTP tests run on memory).
 */
function describeStrictPolicyOn(name: string, open: () => Promise<DatabaseApp>): void {
  describe(`PASSWORD_POLICY=strict on ${name}`, () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await open();
    }, 60_000); // PGlite's start and migrations, on a busy machine
    afterAll(async () => {
      await ctx?.close();
    });

    it('V6.2.11: refuses the inviting tenant\'s name at an invitation signup, and the tenant\'s name at a change', async () => {
      const run = `${process.pid}-${Date.now()}`;
      const ownerEmail = `owner-${run}@example.com`;
      const signup = await request(ctx.app).post(`${API}/signup`).send({ email: ownerEmail, password: PASSWORD, tenant_name: 'Lighthouse Keepers' });
      expect(signup.status).toBe(201);
      const owner = { Authorization: `Bearer ${signup.body.token as string}` };
      const invite = await request(ctx.app).post(`${API}/invite`).set(owner).send({ email: `joiner-${run}@example.com` });
      expect(invite.status).toBe(201);

      const refused = await request(ctx.app).post(`${API}/signup`)
        .send({ email: `joiner-${run}@example.com`, password: 'keepers of the light', invite_token: invite.body.invite_token });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: { error: 'Password must not contain the organisation name' } });
      await expect(ctx.db.selectFrom('users').select('id').where('email', '=', `joiner-${run}@example.com`).execute()).resolves.toEqual([]);

      const change = await request(ctx.app).post(`${API}/password`).set(owner)
        .send({ current_password: PASSWORD, new_password: 'LIGHTHOUSE at dawn' });
      expect({ status: change.status, body: change.body }).toEqual({ status: 400, body: { error: 'Password must not contain the organisation name' } });

      const joined = await request(ctx.app).post(`${API}/signup`)
        .send({ email: `joiner-${run}@example.com`, password: PASSWORD, invite_token: invite.body.invite_token });
      expect(joined.status).toBe(201);
    });
  });
}

describeStrictPolicyOn('PGlite', () => databaseApp('pglite', { passwordPolicy: 'strict' }));

describeIfPostgres('Postgres', (url) => {
  describeStrictPolicyOn('Postgres', () => databaseApp({ postgres: url }, { passwordPolicy: 'strict' }));
});
