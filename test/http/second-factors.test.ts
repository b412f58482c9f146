import { Registry } from 'prom-client';
import { HttpMetrics } from '../../src/adapters/http/middleware/http-metrics';
import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { MemoryServiceKeys } from '../../src/adapters/persistence/memory/memory-service-keys';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { TestClock } from '../../src/testing/test-clock';
import { claimsOf, codeAt, describeSecondFactorsFlow, enrollApp, passwordStep } from '../http-db/second-factors-flow';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, bearer, createApiKey, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { linkToken } from '../support/mail-links';
import { serviceKeyManager } from '../support/verifier-fixtures';

describeSecondFactorsFlow('memory', async () => {
  const clock = new TestClock();
  const t = await buildTestApp({}, { clock });
  return { app: t.app, clock, close: () => t.assembly.close() };
});

describe('second factors on memory: resets, notices, the trail, the throttle and introspection', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailbox: DevelopmentMailbox;
  let rawServiceKey: string;

  beforeAll(async () => {
    clock = new TestClock();
    const serviceKeys = new MemoryServiceKeys();
    rawServiceKey = (await serviceKeyManager(serviceKeys, clock).create('reporting', ALL_TENANTS)).rawKey;
    t = await buildTestApp({}, { clock, serviceKeys }, { metrics: new HttpMetrics(new Registry()) });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  const deliver = async () => {
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
  };

  async function actions(account: { token: string }, action: string): Promise<Array<{ details: Record<string, unknown>; actor_user_id: string | null }>> {
    const res = await request(t.app).get(`${AUTH}/audit-events?action=${action}`).set(bearer(account));
    expect(res.status).toBe(200);
    return res.body.events;
  }

  // V6.4.3: a reset does not get around the second factor.
  it('a reset for a member with a factor wants one in the body: without it 401 with the methods, and the link stays usable (V6.4.3)', async () => {
    const owner = await signupOwner(t.app, 'Reset Co');
    const { secret } = await enrollApp(t.app, clock, owner);
    await request(t.app).post(`${AUTH}/password/forgot`).send({ email: owner.email }).expect(202);
    await deliver();
    const token = linkToken(mailbox.latestTo(owner.email)!.text, 'reset-password');
    const without = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: 'a brand new passphrase' });
    expect({ status: without.status, body: without.body }).toEqual({ status: 401, body: { error: 'Second factor required', methods: ['totp', 'recovery_code'] } });
    const wrong = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: 'a brand new passphrase', recovery_code: 'aaaa-aaaa-aaaa-aaaa-aaaa-aaaa' });
    expect(wrong.body).toEqual({ error: 'Second factor required', methods: ['totp', 'recovery_code'] });
    clock.advance({ seconds: 30 });
    const reset = await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: 'a brand new passphrase', code: codeAt(secret, clock.now()) });
    expect(reset.status).toBe(200);
    expect(claimsOf(reset.body.token).amr).toEqual(['pwd', 'otp', 'mfa']);
    // The factor stays: the new password alone is not a sign-in.
    expect((await request(t.app).post(`${AUTH}/login`).send({ email: owner.email, password: 'a brand new passphrase' })).status).toBe(401);
    const failed = await actions({ token: reset.body.token }, 'mfa.failed');
    expect(failed.map((e) => e.details)).toEqual([{ reason: 'invalid_second_factor', during: 'password_reset' }]);
  });

  it('adding and removing a factor is told by e-mail and recorded; a recovery code used and a failed code are recorded', async () => {
    const owner = await signupOwner(t.app, 'Notice Co');
    const { recoveryCodes } = await enrollApp(t.app, clock, owner);
    await deliver();
    expect(mailbox.latestTo(owner.email)?.subject).toBe('A second factor was added to your account in Notice Co');
    expect(mailbox.latestTo(owner.email)?.text).not.toContain(recoveryCodes[0]);

    const mfaToken = await passwordStep(t.app, owner);
    expectError(await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: '12345' }), 401, 'Invalid second factor');
    const signedIn = await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, recovery_code: recoveryCodes[0] });
    expect(signedIn.status).toBe(200);
    const account = { ...owner, token: signedIn.body.token as string };

    expect((await actions(account, 'mfa.enrolled')).map((e) => e.details)).toEqual([{ method: 'totp' }]);
    expect((await actions(account, 'mfa.failed')).map((e) => e.details)).toEqual([{ reason: 'invalid_second_factor' }]);
    expect((await actions(account, 'mfa.recovery_code_used')).map((e) => e.details)).toEqual([{ remaining: 9 }]);
    expect((await actions(account, 'login.succeeded'))[0]!.details).toEqual({ amr: 'pwd recovery_code mfa' });

    await request(t.app).delete(`${AUTH}/mfa/totp`).set(bearer(account)).expect(200);
    await deliver();
    expect(mailbox.latestTo(owner.email)?.subject).toBe('A second factor was removed from your account in Notice Co');
    expect((await actions(account, 'mfa.removed')).map((e) => e.details)).toEqual([{ method: 'totp', recovery_codes_removed: 10 }]);
  });

  it('the new-sign-in notice comes after the full sign-in, not after the password alone (V6.3.5)', async () => {
    const owner = await signupOwner(t.app, 'Device Co');
    const { secret } = await enrollApp(t.app, clock, owner);
    await deliver();
    const before = mailbox.messages().filter((m) => m.to === owner.email).length;
    const mfaToken = await passwordStep(t.app, owner);
    await deliver();
    expect(mailbox.messages().filter((m) => m.to === owner.email)).toHaveLength(before);
    clock.advance({ seconds: 30 });
    const done = await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: codeAt(secret, clock.now()) });
    expect(done.status).toBe(200);
    expect(done.headers['x-device-proof']).toEqual(expect.any(String));
    await deliver();
    expect(mailbox.latestTo(owner.email)?.subject).toContain('New sign-in');
  });

  // V6.3.1 / V6.5.1: wrong codes count against the member's own throttle: 5 per address per 15 minutes.
  it('wrong codes are throttled per member: the sixth from one address in the window answers 429 whatever the code', async () => {
    const owner = await signupOwner(t.app, 'Throttle Co');
    const { secret } = await enrollApp(t.app, clock, owner);
    const mfaToken = await passwordStep(t.app, owner);
    for (let i = 0; i < 5; i += 1) {
      expectError(await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: '000000' === codeAt(secret, clock.now()) ? '111111' : '000000' }),
        401, 'Invalid second factor');
    }
    clock.advance({ seconds: 30 });
    const throttled = await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: codeAt(secret, clock.now()) });
    expect(throttled.status).toBe(429);
    clock.advance({ minutes: 15 });
    const later = await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(t.app, owner), code: codeAt(secret, clock.now()) });
    expect(later.status).toBe(200);
  });

  it('introspection says how the caller authenticated: amr of the session, ["api_key"] for a key', async () => {
    const owner = await signupOwner(t.app, 'Amr Co');
    const { secret } = await enrollApp(t.app, clock, owner);
    const apiKey = await createApiKey(t.app, owner);
    clock.advance({ seconds: 30 });
    const signedIn = await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(t.app, owner), code: codeAt(secret, clock.now()) });
    const introspect = (body: object) => request(t.app).post(`${AUTH}/introspect`).set('x-service-key', rawServiceKey).send(body);
    expect((await introspect({ token: signedIn.body.token })).body.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect((await introspect({ token: owner.token })).body.amr).toEqual(['pwd']);
    expect((await introspect({ api_key: apiKey })).body.amr).toEqual(['api_key']);
  });

  it('a sign-in waiting for its second factor dies with a password change: its mfa_token no longer works', async () => {
    const owner = await signupOwner(t.app, 'Change Co');
    const { secret } = await enrollApp(t.app, clock, owner);
    const pending = await passwordStep(t.app, owner);
    const changed = await request(t.app).post(`${AUTH}/password`).set(bearer(owner)).send({ current_password: PASSWORD, new_password: 'another long passphrase' });
    expect(changed.status).toBe(200);
    clock.advance({ seconds: 30 });
    expectError(await request(t.app).post(`${AUTH}/login/mfa`).send({ mfa_token: pending, code: codeAt(secret, clock.now()) }), 401, 'Invalid second factor');
  });

  it('a member without a factor gets exactly the contract\'s login answer', async () => {
    const owner = await signupOwner(t.app, 'Plain Co');
    const res = await request(t.app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), expires_in: '24h' });
  });
});
