import { generateKeyPairSync } from 'node:crypto';
import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { TestClock } from '../../src/testing/test-clock';
import { describeMfaPolicyFlow } from '../http-db/mfa-policy-flow';
import { registerPasskey, TEST_ORIGIN } from '../http-db/passkeys-flow';
import { claimsOf, codeAt, enrollApp, passwordStep } from '../http-db/second-factors-flow';
import { request } from '../support/contract-request';
import { buildTestApp, SPEC_RATE_LIMITS, type TestApp } from '../support/http-app';
import { AUTH, bearer, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { linkToken } from '../support/mail-links';
import { serviceKeyManager } from '../support/verifier-fixtures';

describeMfaPolicyFlow('memory', async () => {
  const clock = new TestClock();
  const t = await buildTestApp({}, { clock });
  return { app: t.app, clock, close: () => t.assembly.close() };
});

describe('a password reset with a passkey as its second factor, on memory', () => {
  let t: TestApp;
  let mailbox: DevelopmentMailbox;
  beforeAll(async () => {
    t = await buildTestApp({}, { clock: new TestClock() });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  async function resetLink(email: string): Promise<string> {
    await request(t.app).post(`${AUTH}/password/forgot`).send({ email }).expect(202);
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
    return linkToken(mailbox.latestTo(email)!.text, 'reset-password');
  }

  // V6.4.3: a reset does not get around the second factor, a passkey included.
  it('the options for the link, then the assertion in the reset body: refused without it, accepted once with it (V6.4.3, V6.5.1)', async () => {
    const owner = await signupOwner(t.app, 'Passkey Reset Co');
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    await registerPasskey(t.app, owner, authenticator);
    const token = await resetLink(owner.email);
    const password = 'a brand new passphrase';
    const without = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password });
    expect({ status: without.status, body: without.body }).toEqual({ status: 401, body: { error: 'Second factor required', methods: ['passkey'] } });

    expectError(await request(t.app).post(`${AUTH}/password/reset/passkey/options`).send({ token: 'ab'.repeat(32) }), 401, 'Invalid second factor');
    const options = await request(t.app).post(`${AUTH}/password/reset/passkey/options`).send({ token });
    expect(options.status).toBe(200);
    // An assertion signed by another key is no proof; the link stays usable.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = authenticator.assert(options.body, { signWith: privateKey });
    expect((await request(t.app).post(`${AUTH}/password/reset`).send({ token, password, passkey: forged })).status).toBe(401);

    const fresh = await request(t.app).post(`${AUTH}/password/reset/passkey/options`).send({ token });
    const reset = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password, passkey: authenticator.assert(fresh.body) });
    expect(reset.status).toBe(200);
    expect(claimsOf(reset.body.token).amr).toEqual(['pwd', 'passkey', 'mfa']);
    // The link is spent.
    expectError(await request(t.app).post(`${AUTH}/password/reset/passkey/options`).send({ token }), 401, 'Invalid second factor');
  });
});

describe('the passkey options of a second step are rate limited per client address', () => {
  // V6.3.1 (throttling): the options routes count in the login limit and the recovery limit, shared with their own routes.
  it('login/mfa/passkey/options shares login\'s 5 a minute; password/reset/passkey/options shares the recovery limit (V6.3.1)', async () => {
    const { app } = await buildTestApp({ rateLimits: { ...SPEC_RATE_LIMITS, recovery: 3 } });
    for (let i = 0; i < 4; i += 1) {
      expect((await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: 'ab'.repeat(32) })).status).toBe(401);
    }
    expect((await request(app).post(`${AUTH}/login`).send({ email: 'nobody@example.com', password: 'not the password' })).status).toBe(401);
    expect((await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: 'ab'.repeat(32) })).status).toBe(429);
    expect((await request(app).post(`${AUTH}/login`).send({ email: 'nobody@example.com', password: 'not the password' })).status).toBe(429);

    const answers: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      answers.push((await request(app).post(`${AUTH}/password/reset/passkey/options`).send({ token: 'ab'.repeat(32) })).status);
    }
    expect(answers.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});

describe('which routes an enrollment session opens', () => {
  /** docs/security.md, "A tenant that requires a second factor": the routes an enrollment session opens. */
  const ENROLLMENT_ROUTES = [
    'GET /api/v1/auth/me', 'GET /api/v1/auth/account', 'POST /api/v1/auth/logout', 'POST /api/v1/auth/reauthenticate',
    'GET /api/v1/auth/mfa', 'POST /api/v1/auth/mfa/totp', 'POST /api/v1/auth/mfa/totp/confirm', 'POST /api/v1/auth/mfa/recovery-codes',
    'GET /api/v1/auth/mfa/passkeys', 'POST /api/v1/auth/mfa/passkeys/options', 'POST /api/v1/auth/mfa/passkeys',
  ];

  // V6.3.3: until the member enrolls, the one-factor session reaches nothing but enrollment.
  it('exactly the documented routes are declared enrollment; every other protected route answers 403 Second factor enrollment required, and introspection inactive (V6.3.3)', async () => {
    const clock = new TestClock();
    const serviceKeys = new MemoryServiceKeys();
    const rawServiceKey = (await serviceKeyManager(serviceKeys, clock).create('reporting', ALL_TENANTS)).rawKey;
    const t = await buildTestApp({}, { clock, serviceKeys });
    const protectedRoutes = t.assembly.routes.filter((route) => route.group === 'protected');
    const declared = protectedRoutes.filter((route) => route.enrollment).map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(declared.sort()).toEqual([...ENROLLMENT_ROUTES].sort());

    const owner = await signupOwner(t.app);
    const { secret } = await enrollApp(t.app, clock, owner);
    clock.advance({ seconds: 30 });
    const full = await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(t.app, owner), code: codeAt(secret, clock.now()) });
    expect((await request(t.app).patch(`${AUTH}/tenant/security`).set(bearer({ token: full.body.token as string })).send({ mfa: 'required' })).status).toBe(200);
    const member = await joinWithRole(t.app, { ...owner, token: full.body.token as string }, 'admin');
    for (const route of protectedRoutes.filter((r) => !r.enrollment)) {
      const path = route.path.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');
      expectError(await request(t.app)[route.method](path).set(bearer(member)).send({}), 403, 'Second factor enrollment required');
    }
    // Nor does it open anything at a verifying service: introspection answers it inactive.
    const introspect = (token: string) => request(t.app).post(`${AUTH}/introspect`).set('x-service-key', rawServiceKey).send({ token });
    expect((await introspect(member.token)).body.active).toBe(false);
    expect((await introspect(full.body.token as string)).body).toMatchObject({ active: true, amr: ['pwd', 'otp', 'mfa'] });
    await t.assembly.close();
  });
});
