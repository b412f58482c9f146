import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeFullFlow } from './full-flow';

const API = '/api/v1/auth';
const PASSWORD = 'correct horse battery';
const PARALLEL = 12;

describeIfPostgres('Postgres over HTTP', (url) => {
  describeFullFlow('Postgres', () => databaseApp({ postgres: url }));

  describe('races', () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await databaseApp({ postgres: url });
    });
    afterAll(async () => {
      await ctx?.close();
    });

    it('gives one 201 and only 409s to concurrent signups with one e-mail', async () => {
      const run = `race-${process.pid}-${Date.now()}`;
      const email = `${run}@example.com`;
      const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) =>
        request(ctx.app).post(`${API}/signup`).send({ email, password: PASSWORD, tenant_name: `${run} ${i}` })));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(PARALLEL - 1);
      for (const r of responses.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: 'Email already registered' });
      const users = await ctx.db.selectFrom('users').select('tenant_id').where('email', '=', email).execute();
      expect(users).toHaveLength(1);
      // Losers that got past the early e-mail check wrote a tenant first: it was rolled back with them.
      const tenants = await ctx.db.selectFrom('tenants').select('id').where('name', 'like', `${run} %`).execute();
      expect(tenants).toHaveLength(1);
    });

    it('lets exactly one of many concurrent signups use one invite', async () => {
      const owner = await request(ctx.app).post(`${API}/signup`)
        .send({ email: `owner-${process.pid}-${Date.now()}@example.com`, password: PASSWORD, tenant_name: 'Invite race' });
      const invite = await request(ctx.app).post(`${API}/invite`).set('authorization', `Bearer ${owner.body.token as string}`)
        .send({ email: 'invitee@example.com' });
      const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) =>
        request(ctx.app).post(`${API}/signup`).send({
          email: `joiner-${i}-${process.pid}-${Date.now()}@example.com`, password: PASSWORD, invite_token: invite.body.invite_token,
        })));
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of responses.filter((x) => x.status !== 201)) expect(r.body).toEqual({ error: 'Invite already accepted' });
      const members = await ctx.db.selectFrom('users').select('id').where('tenant_id', '=', owner.body.tenant_id).execute();
      expect(members).toHaveLength(2);
    });
  });
});
