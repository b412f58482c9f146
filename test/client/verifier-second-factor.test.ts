import { MFA_REQUIRED_ERROR, portcullis, principalOf, requireMfa } from '@portcullis/client';
import express from 'express';
import supertest from 'supertest';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { TestClock } from '../../src/testing/test-clock';
import { codeAt, enrollApp, passwordStep } from '../http-db/second-factors-flow';
import { registerPasskey, TEST_ORIGIN } from '../http-db/passkeys-flow';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, type Account, signupOwner } from '../support/http-fixtures';
import { downstream, RunningServer, serviceKeyManager } from '../support/verifier-fixtures';

/** A Portcullis on memory storage on a real port, and the example downstream service (POST /payouts wants a second factor). */
async function setup() {
  const clock = new TestClock();
  const serviceKeys = new MemoryServiceKeys();
  const { rawKey } = await serviceKeyManager(serviceKeys, clock).create('downstream', ALL_TENANTS);
  const built = await buildTestApp({}, { serviceKeys, clock }, { changeHeartbeatMs: 200 });
  const server = new RunningServer(built.app);
  await server.start();
  const service = downstream(server.url, rawKey, { now: () => clock.now().getTime() });
  await service.auth.feedReady();
  return { ...built, clock, server, service, rawKey };
}

type Setup = Awaited<ReturnType<typeof setup>>;

describe('the verifier library: how the caller authenticated (amr) and requireMfa, against Portcullis', () => {
  let ctx: Setup;
  beforeEach(async () => {
    ctx = await setup();
  });
  afterEach(async () => {
    ctx.service.auth.close();
    await ctx.server.stop();
  });

  const payouts = (headers: Record<string, string>) => supertest(ctx.service.app).post('/payouts').set(headers);

  /** A token of the owner after the password and the authenticator app's current code. */
  async function signInWithCode(owner: Account, secret: string): Promise<Account> {
    const mfaToken = await passwordStep(ctx.app, owner);
    ctx.clock.advance({ seconds: 30 });
    const res = await request(ctx.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: codeAt(secret, ctx.clock.now()) });
    expect(res.status).toBe(200);
    return { ...owner, token: res.body.token as string };
  }

  // V6.3.3: a downstream can require that its callers used two factors.
  it('admits a sign-in with an authenticator code and names its amr (V6.3.3)', async () => {
    const owner = await signupOwner(ctx.app);
    const { secret } = await enrollApp(ctx.app, ctx.clock, owner);
    // The token of the sign-in before the factor was enrolled keeps that sign-in's amr.
    expect((await payouts(bearer(owner))).status).toBe(403);
    const signedIn = await signInWithCode(owner, secret);
    const res = await payouts(bearer(signedIn));
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { ok: true, acted_as: owner.userId, amr: ['pwd', 'otp', 'mfa'] } });
  });

  it('admits a sign-in with a recovery code: it is a second factor too', async () => {
    const owner = await signupOwner(ctx.app);
    const { recoveryCodes } = await enrollApp(ctx.app, ctx.clock, owner);
    const mfaToken = await passwordStep(ctx.app, owner);
    const res = await request(ctx.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, recovery_code: recoveryCodes[0] });
    const answer = await payouts(bearer({ token: res.body.token as string }));
    expect(answer.body).toEqual({ ok: true, acted_as: owner.userId, amr: ['pwd', 'recovery_code', 'mfa'] });
  });

  // V6.3.3: a password alone is one factor; an API key is a machine credential, not a sign-in.
  it('refuses a password-only token and an API key with 403 and a clear error; requireRole-style routes still admit them (V6.3.3)', async () => {
    const owner = await signupOwner(ctx.app);
    const key = await createApiKey(ctx.app, owner);
    for (const headers of [bearer(owner), { 'x-api-key': key }]) {
      const res = await payouts(headers);
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: 'Requires a sign-in with a second factor' } });
      expect((await supertest(ctx.service.app).post('/admin-only').set(headers)).status).toBe(200);
    }
    expect(MFA_REQUIRED_ERROR).toBe('Requires a sign-in with a second factor');
  });

  it("gives the principal's amr: [\"pwd\"] for a password, [\"api_key\"] for a key, as introspection answers them", async () => {
    const owner = await signupOwner(ctx.app);
    const key = await createApiKey(ctx.app, owner);
    const app = express().use(ctx.service.auth).get('/amr', (req, res) => { res.json(principalOf(req).amr); });
    expect((await supertest(app).get('/amr').set(bearer(owner))).body).toEqual(['pwd']);
    expect((await supertest(app).get('/amr').set({ 'x-api-key': key })).body).toEqual(['api_key']);
    const introspected = await request(ctx.app).post(`${AUTH}/introspect`).set('x-service-key', ctx.rawKey).send({ api_key: key });
    expect(introspected.body.amr).toEqual(['api_key']);
  });

  // V6.3.3 and passwordless: a passkey whose authenticator verified its user is two factors in one.
  it('admits a passwordless sign-in with a passkey that verified its user, and refuses one that did not (V6.3.3)', async () => {
    const owner = await signupOwner(ctx.app);
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    await registerPasskey(ctx.app, owner, authenticator);
    const withPasskey = async (userVerified: boolean) => {
      const started = await request(ctx.app).post(`${AUTH}/login/passkey/options`);
      const res = await request(ctx.app).post(`${AUTH}/login/passkey`)
        .send({ ceremony: started.body.ceremony, response: authenticator.assert(started.body.options, { userVerified }) });
      expect(res.status).toBe(200);
      return payouts(bearer({ token: res.body.token as string }));
    };
    expect((await withPasskey(true)).body).toEqual({ ok: true, acted_as: owner.userId, amr: ['passkey', 'mfa'] });
    const unverified = await withPasskey(false);
    expect({ status: unverified.status, body: unverified.body }).toEqual({ status: 403, body: { error: 'Requires a sign-in with a second factor' } });
  });

  it('without the portcullis middleware in front: 401 Missing authentication, never through', async () => {
    const app = express().post('/payouts', requireMfa(), (_req, res) => { res.json({ ok: true }); });
    const res = await supertest(app).post('/payouts');
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'Missing authentication' } });
  });

  it('takes an introspection without amr (a Portcullis from before second factors) as a password or a key: one factor', async () => {
    const old = express().use(express.json()).post('/api/v1/auth/introspect', (req, res) => {
      const body = req.body as { api_key?: string };
      res.json({ active: true, position: 0, tenant_id: 't', user_id: 'u', role: 'owner', method: body.api_key ? 'api_key' : 'jwt' });
    });
    const server = new RunningServer(old);
    await server.start();
    const auth = portcullis({ url: server.url, serviceKey: 'pcsk_old', reconnectMs: { min: 10_000, max: 10_000 }, onError: () => undefined });
    try {
      const app = express().use(auth).get('/amr', (req, res) => { res.json(principalOf(req).amr); }).post('/payouts', requireMfa(), (_req, res) => { res.json({ ok: true }); });
      expect((await supertest(app).get('/amr').set({ authorization: 'Bearer a.b.c' })).body).toEqual(['pwd']);
      expect((await supertest(app).get('/amr').set({ 'x-api-key': `pcls_${'0'.repeat(32)}` })).body).toEqual(['api_key']);
      expect((await supertest(app).post('/payouts').set({ authorization: 'Bearer a.b.c' })).status).toBe(403);
    } finally {
      auth.close();
      await server.stop();
    }
  });
});
