import { request } from '../support/contract-request';
import type { DatabaseApp } from '../support/database-app';

const API = '/api/v1/auth';
const PASSWORD = 'correct horse battery';

let counter = 0;
function freshEmail(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${Date.now()}-${counter}@Example.com`;
}

/**
 * The README's walkthrough, end to end over HTTP on a real SQL backend, with the invariants a
 * client cannot see checked in the database: hashes at rest, nothing left by a failed signup.
 */
export function describeFullFlow(name: string, open: () => Promise<DatabaseApp>): void {
  describe(`${name}: the whole contract over HTTP`, () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await open();
    }, 60_000); // PGlite's start and migrations, on a busy machine
    afterAll(async () => {
      await ctx?.close();
    });

    it('signs up, logs in, uses a key, invites a teammate who joins, and revokes an invite', async () => {
      const { app, db } = ctx;
      const ownerEmail = freshEmail('owner');
      const signup = await request(app).post(`${API}/signup`).send({ email: ownerEmail, password: PASSWORD, tenant_name: 'Flow Co' });
      expect(signup.status).toBe(201);
      const tenantId = signup.body.tenant_id as string;

      // From the device that signed up, which sends back the proof it was given: no new sign-in notice.
      const login = await request(app).post(`${API}/login`).set('X-Device-Proof', signup.headers['x-device-proof'] as string)
        .send({ email: ownerEmail.toLowerCase(), password: PASSWORD });
      expect(login.status).toBe(200);
      const bearer = { authorization: `Bearer ${login.body.token as string}` };

      const me = await request(app).get(`${API}/me`).set(bearer);
      expect(me.body).toEqual({ tenant_id: tenantId, user_id: expect.any(String), role: 'owner' });

      const key = await request(app).post(`${API}/api-keys`).set(bearer);
      expect(key.status).toBe(201);
      const viaKey = await request(app).get(`${API}/me`).set('x-api-key', key.body.api_key as string);
      expect(viaKey.body).toEqual(me.body);

      const invite = await request(app).post(`${API}/invite`).set(bearer).send({ email: freshEmail('mate'), role: 'viewer' });
      expect(invite.status).toBe(201);
      const spare = await request(app).post(`${API}/invite`).set(bearer).send({ email: freshEmail('spare') });
      const listed = await request(app).get(`${API}/invites`).set(bearer);
      expect(listed.body.invites).toHaveLength(2);
      expect(listed.body.invites[0].role).toBe('member'); // newest first

      const joined = await request(app).post(`${API}/signup`).send({
        email: freshEmail('mate'), password: PASSWORD, invite_token: invite.body.invite_token,
      });
      expect(joined.status).toBe(201);
      expect(joined.body.tenant_id).toBe(tenantId);
      const again = await request(app).post(`${API}/signup`).send({
        email: freshEmail('late'), password: PASSWORD, invite_token: invite.body.invite_token,
      });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: 'Invite already accepted' });

      const spareId = (listed.body.invites as Array<{ id: string; role: string }>).find((i) => i.role === 'member')!.id;
      const acceptedId = (listed.body.invites as Array<{ id: string; role: string }>).find((i) => i.role === 'viewer')!.id;
      const resent = await request(app).post(`${API}/invites/${spareId}/resend`).set(bearer);
      expect({ status: resent.status, body: resent.body }).toEqual({ status: 202, body: {} });
      expect((await request(app).post(`${API}/invites/${acceptedId}/resend`).set(bearer)).body).toEqual({ error: 'Invite already accepted' });
      expect((await request(app).delete(`${API}/invites/${spareId}`).set(bearer)).body).toEqual({ deleted: true });
      expect((await request(app).post(`${API}/invites/${spareId}/resend`).set(bearer)).status).toBe(404);
      expect((await request(app).get(`${API}/invites`).set(bearer)).body).toEqual({ invites: [] });
      expect(spare.status).toBe(201);

      // At rest: a scrypt hash, never the password; the key's SHA-256, never the key.
      const user = await db.selectFrom('users').selectAll().where('email', '=', ownerEmail.toLowerCase()).executeTakeFirstOrThrow();
      expect(user.password_hash).toMatch(/^scrypt\$/);
      const stored = await db.selectFrom('api_keys').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
      expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.key_hash).not.toContain(key.body.api_key.slice(5));
      // The messages went into the outbox with their changes: the key's notice, two invitations and the resend,
      // and a verification link for the owner and for the teammate who joined.
      const outbox = await db.selectFrom('mail_outbox').select(['kind', 'recipient']).where('tenant_id', '=', tenantId).execute();
      expect(outbox.map((row) => row.kind).sort()).toEqual(['api-key-created', 'invitation', 'invitation', 'invitation', 'verify-email', 'verify-email']);
    });

    it('leaves the invite pending when its signup is refused for a registered address', async () => {
      const { app, db } = ctx;
      const owner = await request(app).post(`${API}/signup`).send({ email: freshEmail('o'), password: PASSWORD, tenant_name: 'Keep' });
      const bearer = { authorization: `Bearer ${owner.body.token as string}` };
      const taken = freshEmail('taken');
      await request(app).post(`${API}/signup`).send({ email: taken, password: PASSWORD, tenant_name: 'Taken' });
      const invite = await request(app).post(`${API}/invite`).set(bearer).send({ email: freshEmail('x') });
      const refused = await request(app).post(`${API}/signup`).send({ email: taken, password: PASSWORD, invite_token: invite.body.invite_token });
      expect(refused.status).toBe(409);
      const row = await db.selectFrom('tenant_invites').select('accepted_at').where('token', '=', invite.body.invite_token).executeTakeFirstOrThrow();
      expect(row.accepted_at).toBeNull();
    });

    it('answers an expired invite with 400 Invite expired', async () => {
      const { app, db } = ctx;
      const owner = await request(app).post(`${API}/signup`).send({ email: freshEmail('o'), password: PASSWORD, tenant_name: 'Exp' });
      const bearer = { authorization: `Bearer ${owner.body.token as string}` };
      const invite = await request(app).post(`${API}/invite`).set(bearer).send({ email: freshEmail('x') });
      await db.updateTable('tenant_invites').set({ expires_at: new Date(Date.now() - 1000) })
        .where('token', '=', invite.body.invite_token).execute();
      const email = freshEmail('late');
      const res = await request(app).post(`${API}/signup`).send({ email, password: PASSWORD, invite_token: invite.body.invite_token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invite expired' });
      expect(await db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst()).toBeUndefined();
    });

    it('refuses a revoked key', async () => {
      const { app, db } = ctx;
      const owner = await request(app).post(`${API}/signup`).send({ email: freshEmail('o'), password: PASSWORD, tenant_name: 'Rev' });
      const key = await request(app).post(`${API}/api-keys`).set('authorization', `Bearer ${owner.body.token as string}`);
      await db.updateTable('api_keys').set({ revoked: true }).where('key_prefix', '=', key.body.prefix).execute();
      const res = await request(app).get(`${API}/me`).set('x-api-key', key.body.api_key as string);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid API key' });
    });

    it('answers 404, not 500, for a path id that is not a UUID', async () => {
      const { app } = ctx;
      const owner = await request(app).post(`${API}/signup`).send({ email: freshEmail('o'), password: PASSWORD, tenant_name: 'Ids' });
      const res = await request(app).delete(`${API}/invites/not-a-uuid`).set('authorization', `Bearer ${owner.body.token as string}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Invite not found' });
    });
  });
}
