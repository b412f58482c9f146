import type { RequestListener } from 'node:http';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import type { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { AUTH, bearer, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';
import { registerPasskey, TEST_ORIGIN } from './passkeys-flow';
import { claimsOf, codeAt, enrollApp, passwordStep } from './second-factors-flow';

export interface MfaPolicyTarget {
  readonly app: RequestListener;
  /** Another instance over the same database, when the backend has one (Postgres). */
  readonly other?: RequestListener;
  readonly clock: TestClock;
  close(): Promise<void>;
}

const ENROLL = 'Second factor enrollment required';
const FACTOR_SESSION = 'A session signed in with a second factor is required';
const INVALID = 'Invalid second factor';

/** A password sign-in that the second step completes with a passkey assertion; answers the full token. */
async function signInWithPasskey(app: RequestListener, account: Account, authenticator: SoftwareAuthenticator): Promise<string> {
  const mfaToken = await passwordStep(app, account);
  const options = await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: mfaToken });
  expect(options.status).toBe(200);
  const res = await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, passkey: authenticator.assert(options.body) });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/** A password sign-in that answers a token at once (a member without a factor). */
async function passwordOnly(app: RequestListener, account: Account): Promise<string> {
  const res = await request(app).post(`${AUTH}/login`).send({ email: account.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/**
 * A passkey as the second step of a sign-in, and a tenant's policy that requires a second factor,
 * over HTTP, the same on every backend.
 */
export function describeMfaPolicyFlow(name: string, open: () => Promise<MfaPolicyTarget>): void {
  describe(`${name}: passkeys as the second step, and a tenant that requires a second factor`, () => {
    let target: MfaPolicyTarget;
    beforeAll(async () => {
      target = await open();
    }, 60_000);
    afterAll(() => target?.close());

    // V6.3.3: a passkey is a second factor after the password; its challenge belongs to one sign-in attempt (V6.5.1).
    it('a member with a passkey: the password answers methods ["passkey"], the assertion for that attempt signs in once (V6.3.3, V6.5.1)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      const added = await registerPasskey(app, owner, authenticator);

      const refused = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
      expect(refused.body).toEqual({ error: 'Second factor required', mfa_token: expect.any(String), methods: ['passkey'] });
      const mfaToken = refused.body.mfa_token as string;
      const options = await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: mfaToken });
      expect(options.status).toBe(200);
      expect(options.body).toMatchObject({ rpId: 'localhost', challenge: expect.any(String) });
      expect((options.body.allowCredentials as unknown[])).toHaveLength(1);

      // An assertion answering another attempt's challenge does not complete this one.
      const otherToken = await passwordStep(app, owner);
      const otherOptions = await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: otherToken });
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, passkey: authenticator.assert(otherOptions.body) }), 401, INVALID);

      const fresh = await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: otherToken });
      const assertion = authenticator.assert(fresh.body);
      const signedIn = await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: otherToken, passkey: assertion });
      expect(signedIn.status).toBe(200);
      expect(claimsOf(signedIn.body.token).amr).toEqual(['pwd', 'passkey', 'mfa']);
      expect((await request(app).get(`${AUTH}/me`).set({ Authorization: `Bearer ${signedIn.body.token}` })).status).toBe(200);
      // Replayed: the attempt's token and its challenge are spent.
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: otherToken, passkey: assertion }), 401, INVALID);

      // Options for a token that is not an mfa_token, or for a member without a passkey: the one 401.
      expectError(await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: 'ab'.repeat(32) }), 401, INVALID);
      const plain = await signupOwner(app);
      await enrollApp(app, target.clock, plain);
      const appOnly = await passwordStep(app, plain);
      expectError(await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: appOnly }), 401, INVALID);
      expect((await request(app).post(`${AUTH}/login/mfa/passkey/options`).send({})).status).toBe(400);

      // An admin's removal of the member's factors takes the passkey too: the password alone signs in again.
      const admin = await joinWithRole(app, owner, 'admin');
      const member = await joinWithRole(app, owner, 'member');
      await registerPasskey(app, member, new SoftwareAuthenticator(TEST_ORIGIN));
      const removed = await request(app).delete(`${AUTH}/members/${member.userId}/mfa`).set(bearer(admin));
      expect(removed.status).toBe(200);
      expect((await request(app).get(`${AUTH}/mfa/passkeys`).set(bearer({ token: await passwordOnly(app, member) }))).body.passkeys).toEqual([]);
      expect(added.id).toEqual(expect.any(String));
    });

    it('passwordless sign-in records its amr: ["passkey","mfa"] when the authenticator verified the user, else ["passkey"] (V6.3.3)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      await registerPasskey(app, owner, authenticator);
      const signIn = async (userVerified: boolean) => {
        const { body } = await request(app).post(`${AUTH}/login/passkey/options`);
        const res = await request(app).post(`${AUTH}/login/passkey`).send({ ceremony: body.ceremony, response: authenticator.assert(body.options, { userVerified }) });
        expect(res.status).toBe(200);
        return res.body.token as string;
      };
      expect(claimsOf(await signIn(true)).amr).toEqual(['passkey', 'mfa']);
      expect(claimsOf(await signIn(false)).amr).toEqual(['passkey']);
      const sessions = await request(app).get(`${AUTH}/sessions`).set(bearer(owner));
      expect(sessions.status).toBe(200);
    });

    // V6.3.3: an organisation requires a second factor of every member, on every way in.
    it('the policy: only an owner reads it, a switch to required needs a factor session, lists who lacks one, and signs them out (V6.3.3)', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const member = await joinWithRole(app, owner, 'member');
      const admin = await joinWithRole(app, owner, 'admin');
      const first = await request(app).get(`${AUTH}/tenant/security`).set(bearer(owner));
      expect(first.status).toBe(200);
      expect(first.body.mfa).toBe('optional');
      expect(first.body.members_without_factor).toHaveLength(3);
      expect(first.body.members_without_factor).toEqual(expect.arrayContaining([
        { id: owner.userId, email: owner.email, role: 'owner' },
        { id: member.userId, email: member.email, role: 'member' },
        { id: admin.userId, email: admin.email, role: 'admin' },
      ]));
      expectError(await request(app).get(`${AUTH}/tenant/security`).set(bearer(admin)), 403, 'Requires owner role or higher');
      expectError(await request(app).patch(`${AUTH}/tenant/security`).set(bearer(admin)).send({ mfa: 'required' }), 403, 'Requires owner role or higher');
      expect((await request(app).patch(`${AUTH}/tenant/security`).set(bearer(owner)).send({ mfa: 'always' })).status).toBe(400);
      // The owner's own session used no factor: switching would sign them out, so it is refused.
      expectError(await request(app).patch(`${AUTH}/tenant/security`).set(bearer(owner)).send({ mfa: 'required' }), 403, FACTOR_SESSION);

      const { secret } = await enrollApp(app, clock, owner);
      await enrollApp(app, clock, admin);
      const adminPasswordOnly = admin.token; // a session of the admin's that used no factor
      clock.advance({ seconds: 30 });
      const mfaToken = await passwordStep(app, owner);
      const full = await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: codeAt(secret, clock.now()) });
      const ownerFull = { ...owner, token: full.body.token as string };
      const switched = await request(app).patch(`${AUTH}/tenant/security`).set(bearer(ownerFull)).send({ mfa: 'required' });
      expect(switched.status).toBe(200);
      expect(switched.body).toEqual({ mfa: 'required', members_without_factor: [{ id: member.userId, email: member.email, role: 'member' }] });

      // Every session left used a factor: the member without one is signed out, the sessions without mfa end.
      expect((await request(app).get(`${AUTH}/me`).set(bearer(ownerFull))).status).toBe(200);
      expectError(await request(app).get(`${AUTH}/me`).set(bearer(member)), 401, 'Invalid or expired token');
      expectError(await request(app).get(`${AUTH}/me`).set(bearer(owner)), 401, 'Invalid or expired token');
      expectError(await request(app).get(`${AUTH}/me`).set(bearer({ token: adminPasswordOnly })), 401, 'Invalid or expired token');

      const events = await request(app).get(`${AUTH}/audit-events`).query({ action: 'tenant.security_changed' }).set(bearer(ownerFull));
      expect(events.body.events[0]).toMatchObject({
        actor_user_id: owner.userId, details: { mfa_from: 'optional', mfa_to: 'required', members_signed_out: 1 },
      });
      // The same again changes nothing and records nothing.
      expect((await request(app).patch(`${AUTH}/tenant/security`).set(bearer(ownerFull)).send({ mfa: 'required' })).status).toBe(200);
      const again = await request(app).get(`${AUTH}/audit-events`).query({ action: 'tenant.security_changed' }).set(bearer(ownerFull));
      expect(again.body.events).toHaveLength(1);
      expect((await request(app).get(`${AUTH}/tenant/security`).set(bearer(ownerFull))).body.mfa).toBe('required');
    });

    it('under required, a member without a factor gets an enrollment session: /me, /account and enrollment only, then a full sign-in (V6.3.3)', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const ownerApp = await enrollApp(app, clock, owner);
      clock.advance({ seconds: 30 });
      const ownerFull = { ...owner, token: (await request(app).post(`${AUTH}/login/mfa`).send({
        mfa_token: await passwordStep(app, owner), code: codeAt(ownerApp.secret, clock.now()),
      })).body.token as string };
      expect((await request(app).patch(`${AUTH}/tenant/security`).set(bearer(ownerFull)).send({ mfa: 'required' })).status).toBe(200);

      // Joining by invitation: the contract's 201 with a token, which opens only the enrollment routes.
      const member = await joinWithRole(app, ownerFull, 'admin');
      expect(claimsOf(member.token).mfa_enroll).toBe(true);
      for (const path of ['/me', '/account', '/mfa', '/mfa/passkeys']) expect((await request(app).get(`${AUTH}${path}`).set(bearer(member))).status).toBe(200);
      expectError(await request(app).get(`${AUTH}/members`).set(bearer(member)), 403, ENROLL);
      expectError(await request(app).get(`${AUTH}/sessions`).set(bearer(member)), 403, ENROLL);
      expectError(await request(app).post(`${AUTH}/api-keys`).set(bearer(member)), 403, ENROLL);
      expectError(await request(app).post(`${AUTH}/password`).set(bearer(member)).send({ current_password: PASSWORD, new_password: 'another long passphrase' }), 403, ENROLL);
      // A password sign-in is the same.
      const again = await passwordOnly(app, member);
      expect(claimsOf(again).mfa_enroll).toBe(true);
      expectError(await request(app).get(`${AUTH}/members`).set(bearer({ token: again })), 403, ENROLL);

      // Enrolling a factor in the enrollment session; the next sign-in is a full one.
      const enrolled = await enrollApp(app, clock, member);
      expectError(await request(app).get(`${AUTH}/members`).set(bearer(member)), 403, ENROLL);
      clock.advance({ seconds: 30 });
      const complete = await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(app, member), code: codeAt(enrolled.secret, clock.now()) });
      expect(complete.status).toBe(200);
      expect(claimsOf(complete.body.token).mfa_enroll).toBeUndefined();
      expect((await request(app).get(`${AUTH}/members`).set(bearer({ token: complete.body.token as string }))).status).toBe(200);
      expect((await request(app).post(`${AUTH}/logout`).set(bearer(member))).status).toBe(204);

      // A passwordless passkey whose authenticator did not verify the user is one factor: an enrollment session too.
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      await registerPasskey(app, ownerFull, authenticator);
      const { body } = await request(app).post(`${AUTH}/login/passkey/options`);
      const weak = await request(app).post(`${AUTH}/login/passkey`).send({ ceremony: body.ceremony, response: authenticator.assert(body.options, { userVerified: false }) });
      expect(claimsOf(weak.body.token).mfa_enroll).toBe(true);
      expectError(await request(app).get(`${AUTH}/members`).set(bearer({ token: weak.body.token as string })), 403, ENROLL);
      const strong = await signInWithPasskey(app, ownerFull, authenticator);
      expect((await request(app).get(`${AUTH}/members`).set(bearer({ token: strong }))).status).toBe(200);

      // API keys: a key still authenticates under the policy, but only a session that used a factor makes one.
      const key = (await request(app).post(`${AUTH}/api-keys`).set(bearer(ownerFull))).body.api_key as string;
      expect((await request(app).get(`${AUTH}/me`).set({ 'X-API-Key': key })).status).toBe(200);
      expectError(await request(app).post(`${AUTH}/api-keys`).set({ 'X-API-Key': key }), 403, FACTOR_SESSION);

      // Back to optional: a member without a factor signs in fully again.
      expect((await request(app).patch(`${AUTH}/tenant/security`).set(bearer(ownerFull)).send({ mfa: 'optional' })).status).toBe(200);
      const viewer = await joinWithRole(app, ownerFull, 'viewer');
      expect(claimsOf(viewer.token).mfa_enroll).toBeUndefined();
    });

    it('the switch is in force on the other instance from its next request (sessions ended, sign-ins held to enroll)', async () => {
      const { app, other, clock } = target;
      if (!other) return;
      const owner = await signupOwner(app);
      const member = await joinWithRole(app, owner, 'member');
      expect((await request(other).get(`${AUTH}/me`).set(bearer(member))).status).toBe(200);
      const { secret } = await enrollApp(app, clock, owner);
      clock.advance({ seconds: 30 });
      const ownerFull = { ...owner, token: (await request(app).post(`${AUTH}/login/mfa`).send({
        mfa_token: await passwordStep(app, owner), code: codeAt(secret, clock.now()),
      })).body.token as string };
      expect((await request(app).patch(`${AUTH}/tenant/security`).set(bearer(ownerFull)).send({ mfa: 'required' })).status).toBe(200);
      expectError(await request(other).get(`${AUTH}/me`).set(bearer(member)), 401, 'Invalid or expired token');
      expectError(await request(other).get(`${AUTH}/me`).set(bearer(owner)), 401, 'Invalid or expired token');
      const held = await passwordOnly(other, member);
      expectError(await request(app).get(`${AUTH}/sessions`).set(bearer({ token: held })), 403, ENROLL);
      expect((await request(other).get(`${AUTH}/members`).set(bearer(ownerFull))).status).toBe(200);
    });
  });
}
