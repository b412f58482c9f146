import { request } from '../support/contract-request';
import type { DatabaseApp } from '../support/database-app';

const API = '/api/v1/auth';
const PASSWORD = 'correct horse battery';

let counter = 0;
function freshEmail(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

/**
 * Verification and a change of address over HTTP on a real SQL backend, as the walled app role:
 * the token insert in signup's own transaction, the consume-once updates, the address change with
 * its unique index, and what is left at rest (a token's hash, never the token).
 */
export function describeEmailAddressFlow(name: string, open: () => Promise<DatabaseApp>): void {
  describe(`${name}: verifying and changing an address over HTTP`, () => {
    let ctx: DatabaseApp;
    beforeAll(async () => {
      ctx = await open();
    }, 60_000); // PGlite's start and migrations, on a busy machine
    afterAll(async () => {
      await ctx?.close();
    });

    /** The token of the newest message of that kind to that address, read from the outbox as the owner. */
    async function linkIn(kind: string, recipient: string): Promise<string> {
      const row = await ctx.db.selectFrom('mail_outbox').select('input').where('kind', '=', kind).where('recipient', '=', recipient)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
      const input = (typeof row.input === 'string' ? JSON.parse(row.input) : row.input) as { token: string };
      return input.token;
    }

    it('a signup\'s link verifies the address once; a confirmed change moves the account and ends earlier tokens', async () => {
      const { app, db } = ctx;
      const email = freshEmail('verify');
      const signup = await request(app).post(`${API}/signup`).send({ email, password: PASSWORD, tenant_name: 'Address Co' });
      expect(signup.status).toBe(201);
      const before = { authorization: `Bearer ${signup.body.token as string}` };

      const verification = await linkIn('verify-email', email);
      expect((await request(app).post(`${API}/email/verify`).send({ token: verification })).body).toEqual({ verified: true });
      expect((await request(app).post(`${API}/email/verify`).send({ token: verification })).status).toBe(400);
      expect((await request(app).get(`${API}/account`).set(before)).body.email_verified).toBe(true);

      const to = freshEmail('moved');
      expect((await request(app).post(`${API}/email/change`).set(before).send({ new_email: to, current_password: PASSWORD })).status).toBe(202);
      const confirmation = await linkIn('email-change-confirm', to);
      const done = await request(app).post(`${API}/email/change/confirm`).send({ token: confirmation });
      expect(done.status).toBe(200);
      expect((await request(app).get(`${API}/me`).set(before)).status).toBe(401);
      const after = await request(app).get(`${API}/account`).set({ authorization: `Bearer ${done.body.token as string}` });
      expect(after.body).toMatchObject({ email: to, email_verified: true });
      expect((await db.selectFrom('mail_outbox').select('recipient').where('kind', '=', 'email-changed-notice').where('recipient', '=', email).execute()))
        .toHaveLength(1);

      // At rest: hashes only, every token of the member used or voided.
      const tokens = await db.selectFrom('email_tokens').select(['token_hash', 'used_at']).where('tenant_id', '=', signup.body.tenant_id as string).execute();
      expect(tokens.map((t) => t.token_hash)).not.toContain(verification);
      expect(tokens.map((t) => t.token_hash)).not.toContain(confirmation);
      expect(tokens.every((t) => t.used_at !== null)).toBe(true);
    });

    it('answers 409 at confirmation when the new address was registered meanwhile, and keeps the old address', async () => {
      const { app } = ctx;
      const email = freshEmail('keep');
      const signup = await request(app).post(`${API}/signup`).send({ email, password: PASSWORD, tenant_name: 'Race Co' });
      const session = { authorization: `Bearer ${signup.body.token as string}` };
      const to = freshEmail('taken');
      expect((await request(app).post(`${API}/email/change`).set(session).send({ new_email: to, current_password: PASSWORD })).status).toBe(202);
      const confirmation = await linkIn('email-change-confirm', to);
      expect((await request(app).post(`${API}/signup`).send({ email: to, password: PASSWORD, tenant_name: 'Quick Co' })).status).toBe(201);
      const refused = await request(app).post(`${API}/email/change/confirm`).send({ token: confirmation });
      expect({ status: refused.status, body: refused.body as unknown }).toEqual({ status: 409, body: { error: 'Email already registered' } });
      expect((await request(app).get(`${API}/account`).set(session)).body.email).toBe(email);
    });
  });
}
