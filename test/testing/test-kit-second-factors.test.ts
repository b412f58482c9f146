import supertest from 'supertest';
import { request } from '../support/contract-request';
import { createTestPortcullis, startTestPortcullis } from '../../src/testing';
import { SecondFactorRequired } from '../../src/domain/errors';
import { eachTestKit, withDownstream } from '../support/kit-lifecycle';

const AUTH = '/api/v1/auth';

describe("the test kit's second factors: pc.memberWithTotp, pc.memberWithPasskey, pc.totpCode, pc.login with a factor", () => {
  const kit = eachTestKit(() => createTestPortcullis());

  const me = (token: string) => request(kit().app).get(`${AUTH}/me`).set('authorization', `Bearer ${token}`);

  // V6.3.3: the kit's member with an app is one the service asks for the second factor.
  it('memberWithTotp: enrolled through the service, signed in with password and code; the password alone is not a sign-in (V6.3.3)', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const member = await pc.memberWithTotp(acme, 'admin');
    expect(member.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(member.totp).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]+$/), recoveryCodes: expect.any(Array) });
    expect(member.totp!.recoveryCodes).toHaveLength(10);
    expect((await me(member.token)).body).toMatchObject({ user_id: member.userId, role: 'admin' });

    const first = await request(pc.app).post(`${AUTH}/login`).send({ email: member.email, password: member.password });
    expect({ status: first.status, body: first.body }).toEqual({
      status: 401, body: { error: 'Second factor required', mfa_token: expect.any(String), methods: ['totp', 'recovery_code'] },
    });
    // pc.totpCode is the code the member's app shows now on the kit's clock.
    const second = await request(pc.app).post(`${AUTH}/login/mfa`).send({ mfa_token: first.body.mfa_token, code: pc.totpCode(member) });
    expect({ status: second.status, body: second.body }).toEqual({ status: 200, body: { token: expect.any(String), expires_in: '24h' } });
  });

  // V6.3.3: the kit's tenant that requires a factor is the service's own policy, switched by its owner.
  it('requireSecondFactor: the owner switches from a factor session; a member without a factor is signed out and signs in to enrollment only (V6.3.3)', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const plain = await pc.member(acme, 'member');
    const withApp = await pc.memberWithTotp(acme, 'admin');
    const before = plain.token;
    await pc.requireSecondFactor(acme);
    expect(acme.owner.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect((await me(before)).body).toEqual({ error: 'Invalid or expired token' });
    expect((await me(withApp.token)).status).toBe(200);
    const security = await request(pc.app).get(`${AUTH}/tenant/security`).set(acme.owner.headers);
    expect(security.body).toEqual({ mfa: 'required', members_without_factor: [{ id: plain.userId, email: plain.email, role: 'member' }] });
    await pc.login(plain);
    expect((await me(plain.token)).status).toBe(200);
    const members = await request(pc.app).get(`${AUTH}/members`).set(plain.headers);
    expect({ status: members.status, body: members.body }).toEqual({ status: 403, body: { error: 'Second factor enrollment required' } });
  });

  // V6.5.1: a code is accepted once, so the kit gives each code of a step once, moving its clock on.
  it('totpCode never gives the same step twice: the clock moves to the next 30-second step, and the service takes each code (V6.5.1)', async () => {
    const pc = kit();
    const member = await pc.memberWithTotp(await pc.tenant());
    const before = pc.clock.now().getTime();
    const a = pc.totpCode(member);
    const b = pc.totpCode(member);
    const after = pc.clock.now().getTime();
    expect(Math.floor(after / 30_000)).toBe(Math.floor(before / 30_000) + 2);
    expect(after - before).toBeLessThanOrEqual(60_000);
    expect(a).toMatch(/^[0-9]{6}$/);
    expect(b).toMatch(/^[0-9]{6}$/);
    await pc.login(member);
    await pc.login(member);
    expect(member.amr).toEqual(['pwd', 'otp', 'mfa']);
  });

  it('login chooses the factor: a recovery code (each once), or the password alone, which the service refuses for a member with a factor', async () => {
    const pc = kit();
    const member = await pc.memberWithTotp(await pc.tenant());
    await pc.login(member, { factor: 'recovery_code' });
    expect(member.amr).toEqual(['pwd', 'recovery_code', 'mfa']);
    const used = member.totp!.recoveryCodes[0];
    const first = await request(pc.app).post(`${AUTH}/login`).send({ email: member.email, password: member.password });
    const again = await request(pc.app).post(`${AUTH}/login/mfa`).send({ mfa_token: first.body.mfa_token, recovery_code: used });
    expect({ status: again.status, body: again.body }).toEqual({ status: 401, body: { error: 'Invalid second factor' } });
    await expect(pc.login(member, { factor: 'password' })).rejects.toBeInstanceOf(SecondFactorRequired);
  });

  it('enrollTotp on a signed-in member: their token keeps the amr of the sign-in before, and still works', async () => {
    const pc = kit();
    const member = await pc.member(await pc.tenant(), 'viewer');
    const token = member.token;
    await pc.enrollTotp(member);
    expect(member.token).toBe(token);
    expect(member.amr).toEqual(['pwd']);
    expect((await me(token)).status).toBe(200);
  });

  it('memberWithPasskey: a passkey in a software authenticator, signed in with it (passwordless); unverified, one factor', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const member = await pc.memberWithPasskey(acme);
    expect(member.amr).toEqual(['passkey', 'mfa']);
    expect((await me(member.token)).body).toMatchObject({ user_id: member.userId });
    const listed = await request(pc.app).get(`${AUTH}/mfa/passkeys`).set(member.headers);
    expect(listed.body.passkeys).toEqual([expect.objectContaining({ id: member.passkey!.id, name: 'Test passkey' })]);

    // The authenticator the member object holds answers the service's ceremony over HTTP too.
    const started = await request(pc.app).post(`${AUTH}/login/passkey/options`);
    const res = await request(pc.app).post(`${AUTH}/login/passkey`).send({ ceremony: started.body.ceremony, response: member.passkey!.authenticator.assert(started.body.options) });
    expect(res.status).toBe(200);

    const unverified = await pc.memberWithPasskey(acme, 'viewer', { userVerified: false, name: 'Security key' });
    expect(unverified.amr).toEqual(['passkey']);
  });

  it('an owner with an authenticator app: the kit still acts for the tenant after the test ends the owner\'s session', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    await pc.enrollTotp(acme.owner);
    await pc.logout(acme.owner);
    const member = await pc.member(acme, 'member');
    expect((await me(member.token)).status).toBe(200);
  });
});

describe("the test kit's second factors seen by a downstream service with requireMfa", () => {
  const kit = eachTestKit(() => startTestPortcullis());

  // V6.3.3: a downstream's sensitive route admits only a sign-in with two factors.
  it('POST /payouts of the example: a member with an app or a verified passkey is admitted, a password-only member and a key are not (V6.3.3)', async () => {
    const pc = kit();
    const acme = await pc.tenant();
    const withApp = await pc.memberWithTotp(acme, 'admin');
    const withPasskey = await pc.memberWithPasskey(acme);
    const plain = await pc.member(acme);
    const key = await pc.apiKey(withApp);
    await withDownstream(pc, async (service) => {
      const payouts = (headers: Record<string, string>) => supertest(service.app).post('/payouts').set(headers);
      expect((await payouts(withApp.headers)).body).toEqual({ ok: true, acted_as: withApp.userId, amr: ['pwd', 'otp', 'mfa'] });
      expect((await payouts(withPasskey.headers)).body).toEqual({ ok: true, acted_as: withPasskey.userId, amr: ['passkey', 'mfa'] });
      for (const headers of [plain.headers, key.headers]) {
        const res = await payouts(headers);
        expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: 'Requires a sign-in with a second factor' } });
      }
    });
  });
});
