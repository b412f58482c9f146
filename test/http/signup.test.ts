import jwt from 'jsonwebtoken';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createInvite, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { TestClock } from '../../src/testing/test-clock';
import { uniqueEmail } from '../support/test-use-cases';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import type { Secrets } from '../../src/application/ports/secrets';

interface Claims { tenantId: string; userId: string; email: string; role: string; iat: number; exp: number }

describe('POST /api/v1/auth/signup', () => {
  describe('new tenant', () => {
    it('answers 201 with a 24h JWT whose claims name the new tenant and its owner', async () => {
      const { app } = await buildTestApp();
      const email = uniqueEmail('Founder');
      const res = await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Acme Inc' });

      expect(res.status).toBe(201);
      expect(res.body).toEqual({ token: expect.any(String), tenant_id: expect.any(String), expires_in: '24h' });
      const claims = jwt.decode(res.body.token) as Claims;
      expect(claims).toMatchObject({ tenantId: res.body.tenant_id, userId: expect.any(String), email: email.toLowerCase(), role: 'owner' });
      expect(claims.exp - claims.iat).toBe(24 * 3600);
      expect(jwt.decode(res.body.token, { complete: true })?.header.alg).toBe('HS256');
    });

    it('creates a separate tenant for every new signup', async () => {
      const { app } = await buildTestApp();
      const a = await signupOwner(app, 'Same Name');
      const b = await signupOwner(app, 'Same Name');
      expect(a.tenantId).not.toBe(b.tenantId);
    });

    it('accepts tenant names of 1 and of 100 characters', async () => {
      const { app } = await buildTestApp();
      for (const tenant_name of ['x', 'y'.repeat(100)]) {
        const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, tenant_name });
        expect(res.status).toBe(201);
      }
    });
  });

  describe('e-mail already registered', () => {
    it('answers 409, also when the address differs only in letter case', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const again = await request(app).post(`${AUTH}/signup`).send({ email: owner.email, password: PASSWORD, tenant_name: 'Other' });
      expectError(again, 409, 'Email already registered');
      const shouted = await request(app).post(`${AUTH}/signup`).send({ email: owner.email.toUpperCase(), password: PASSWORD, tenant_name: 'Other' });
      expectError(shouted, 409, 'Email already registered');
    });

    it('answers 409 on the invite path too, and leaves the invite unused', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      const res = await request(app).post(`${AUTH}/signup`).send({ email: owner.email, password: PASSWORD, invite_token: invite.token });
      expectError(res, 409, 'Email already registered');
      const list = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
      expect(list.body.invites).toHaveLength(1);
    });
  });

  describe('invite path', () => {
    it("joins the invite's tenant with the invite's role and marks the invite accepted", async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner, { role: 'viewer' });
      const res = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });

      expect(res.status).toBe(201);
      expect(res.body).toEqual({ token: expect.any(String), tenant_id: owner.tenantId, expires_in: '24h' });
      expect(jwt.decode(res.body.token)).toMatchObject({ tenantId: owner.tenantId, role: 'viewer', email: invite.email.toLowerCase() });
      const list = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
      expect(list.body.invites).toEqual([]);
    });

    it('uses the default role member when the invite named none', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      const res = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
      expect(jwt.decode(res.body.token)).toMatchObject({ role: 'member' });
    });

    it('takes the invite path even when tenant_name is also given', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner, { role: 'admin' });
      const res = await request(app).post(`${AUTH}/signup`)
        .send({ email: invite.email, password: PASSWORD, invite_token: invite.token, tenant_name: 'Breakaway' });
      expect(res.status).toBe(201);
      expect(res.body.tenant_id).toBe(owner.tenantId);
      expect(jwt.decode(res.body.token)).toMatchObject({ role: 'admin' });
    });

    it('lets anyone holding the token sign up with their own e-mail address', async () => {
      // The contract ties an invite to its token, not to the invited address.
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail('other'), password: PASSWORD, invite_token: invite.token });
      expect(res.status).toBe(201);
      expect(res.body.tenant_id).toBe(owner.tenantId);
    });

    it.each([
      ['an unknown token', 'a'.repeat(64)],
      ['a token of the wrong shape', 'not-a-token'],
      ['an upper-case copy of a token', null],
      ['an empty token', ''],
    ])('answers 400 Invalid invite token for %s', async (_label, given) => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      const token = given ?? invite.token.toUpperCase();
      const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, invite_token: token, tenant_name: 'X' });
      expectError(res, 400, 'Invalid invite token');
    });

    it('answers 400 Invite already accepted for a used invite', async () => {
      const { app } = await buildTestApp();
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token }).expect(201);
      const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD, invite_token: invite.token });
      expectError(res, 400, 'Invite already accepted');
    });

    it('answers 400 Invite expired once expires_at has passed, and creates no user', async () => {
      const clock = new TestClock();
      const { app } = await buildTestApp({}, { clock, inviteTtlSeconds: 3600 });
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      expect(new Date(invite.expiresAt).getTime()).toBe(clock.now().getTime() + 3600 * 1000);

      clock.advance({ seconds: 3600 });
      const res = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
      expectError(res, 400, 'Invite expired');
      const login = await request(app).post(`${AUTH}/login`).send({ email: invite.email, password: PASSWORD });
      expectError(login, 401, 'Invalid credentials');
    });

    it('still accepts an invite one second before it expires', async () => {
      const clock = new TestClock();
      const { app } = await buildTestApp({}, { clock, inviteTtlSeconds: 3600 });
      const owner = await signupOwner(app);
      const invite = await createInvite(app, owner);
      clock.advance({ seconds: 3599 });
      const res = await request(app).post(`${AUTH}/signup`).send({ email: invite.email, password: PASSWORD, invite_token: invite.token });
      expect(res.status).toBe(201);
    });
  });

  describe('missing tenant_name', () => {
    it('answers 400 when neither tenant_name nor invite_token is given', async () => {
      const { app } = await buildTestApp();
      const res = await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(), password: PASSWORD });
      expectError(res, 400, 'tenant_name is required for new signups');
    });
  });
});

describe('POST /api/v1/auth/signup when the slug drawn is taken', () => {
  it('answers 201 for both tenants of one name when the random suffix repeats, each with its own slug', async () => {
    const real = new NodeSecrets();
    const suffixes = ['0a0a0a', '0a0a0a', '1b1b1b'];
    const secrets: Secrets = { randomHex: (bytes) => (bytes === 3 && suffixes.length > 0 ? suffixes.shift()! : real.randomHex(bytes)), sha256Hex: (v) => real.sha256Hex(v) };
    const { app, storage } = await buildTestApp({}, { secrets });
    const answers = [];
    for (const label of ['first', 'second']) {
      answers.push(await request(app).post(`${AUTH}/signup`).send({ email: uniqueEmail(label), password: PASSWORD, tenant_name: 'Twin Co' }));
    }
    expect(answers.map((res) => res.status)).toEqual([201, 201]);
    const slugs = await Promise.all(answers.map(async (res) => (await storage.repos.tenants.findById(res.body.tenant_id as string))?.slug));
    expect(slugs).toEqual(['twin-co-0a0a0a', 'twin-co-1b1b1b']);
  });
});
