import type { RequestListener } from 'node:http';
import { Secret, TOTP } from 'otpauth';
import type { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { AUTH, bearer, expectError, joinWithRole, PASSWORD, signupOwner, type Account } from '../support/http-fixtures';

export interface SecondFactorsTarget {
  readonly app: RequestListener;
  /** The app's manual clock: codes are made for its time, and it moves to the next 30-second step. */
  readonly clock: TestClock;
  close(): Promise<void>;
}

/** The code an authenticator app holding `secret` shows at `at`. */
export function codeAt(secret: string, at: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at.getTime() });
}

/** The claims of a bearer token (read, not verified: the service verifies them). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export interface Enrolled {
  readonly secret: string;
  readonly recoveryCodes: string[];
}

/** Sets up an authenticator app for the account and confirms it with its current code. */
export async function enrollApp(app: RequestListener, clock: TestClock, account: Account): Promise<Enrolled> {
  const started = await request(app).post(`${AUTH}/mfa/totp`).set(bearer(account));
  expect(started.status).toBe(200);
  const secret = started.body.secret as string;
  const confirmed = await request(app).post(`${AUTH}/mfa/totp/confirm`).set(bearer(account)).send({ code: codeAt(secret, clock.now()) });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[] };
}

/** The first step of a sign-in for a member with a factor: the mfa_token. */
export async function passwordStep(app: RequestListener, account: Account): Promise<string> {
  const res = await request(app).post(`${AUTH}/login`).send({ email: account.email, password: PASSWORD });
  expect(res.status).toBe(401);
  expect(res.body.error).toBe('Second factor required');
  return res.body.mfa_token as string;
}

/**
 * Second factors over HTTP, the same on every backend: an authenticator app enrolled and confirmed,
 * the two-step sign-in with a code or a recovery code, each accepted once, and factors removed.
 */
export function describeSecondFactorsFlow(name: string, open: () => Promise<SecondFactorsTarget>): void {
  describe(`${name}: second factors over HTTP`, () => {
    let target: SecondFactorsTarget;
    beforeAll(async () => {
      target = await open();
    }, 60_000);
    afterAll(() => target?.close());

    const nextStep = () => target.clock.advance({ seconds: 30 });

    it('an app is enrolled (pending until confirmed), then the password alone answers 401 with an mfa_token and the methods (V6.3.3)', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const none = await request(app).get(`${AUTH}/mfa`).set(bearer(owner));
      expect(none.body).toEqual({ totp: null, recovery_codes: { remaining: 0 } });

      const first = await request(app).post(`${AUTH}/mfa/totp`).set(bearer(owner));
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauth_uri: expect.stringMatching(/^otpauth:\/\/totp\//) });
      expect(first.body.otpauth_uri).toContain('issuer=Acme');
      // Pending is not a factor: the password alone still signs in.
      expect((await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD })).status).toBe(200);
      // A new call replaces the pending secret: the first one's code no longer confirms.
      const second = await request(app).post(`${AUTH}/mfa/totp`).set(bearer(owner));
      expect(second.body.secret).not.toBe(first.body.secret);
      expectError(await request(app).post(`${AUTH}/mfa/totp/confirm`).set(bearer(owner)).send({ code: codeAt(first.body.secret, clock.now()) }),
        400, 'Invalid code, or no authenticator app is pending');
      const confirmed = await request(app).post(`${AUTH}/mfa/totp/confirm`).set(bearer(owner)).send({ code: codeAt(second.body.secret, clock.now()) });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.recovery_codes).toHaveLength(10);
      for (const code of confirmed.body.recovery_codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
      expectError(await request(app).post(`${AUTH}/mfa/totp`).set(bearer(owner)), 409, 'An authenticator app is already enrolled');

      const listed = await request(app).get(`${AUTH}/mfa`).set(bearer(owner));
      expect(listed.body).toEqual({ totp: { enrolled_at: expect.any(String) }, recovery_codes: { remaining: 10 } });

      const refused = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'Second factor required', mfa_token: expect.stringMatching(/^[0-9a-f]{64}$/), methods: ['totp', 'recovery_code'] });
      // A wrong password is still the contract's answer.
      expectError(await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: 'not the password at all' }), 401, 'Invalid credentials');
      // The mfa_token opens nothing else: it is not a bearer token.
      expectError(await request(app).get(`${AUTH}/me`).set({ Authorization: `Bearer ${refused.body.mfa_token}` }), 401, 'Invalid or expired token');
    });

    it('a code signs in once: the confirming code and a replay inside its window are refused, the mfa_token works once (V6.5.1)', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const { secret } = await enrollApp(app, clock, owner);
      // The code that confirmed the app is used already.
      const mfaToken = await passwordStep(app, owner);
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: codeAt(secret, clock.now()) }), 401, 'Invalid second factor');

      nextStep();
      const code = codeAt(secret, clock.now());
      const signedIn = await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toEqual({ token: expect.any(String), expires_in: '24h' });
      expect(claimsOf(signedIn.body.token).amr).toEqual(['pwd', 'otp', 'mfa']);
      expect((await request(app).get(`${AUTH}/me`).set({ Authorization: `Bearer ${signedIn.body.token}` })).status).toBe(200);

      // The same mfa_token again, even with a fresh code: used.
      nextStep();
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: mfaToken, code: codeAt(secret, clock.now()) }), 401, 'Invalid second factor');
      // The code just used, in a new sign-in within its window: refused.
      const again = await passwordStep(app, owner);
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: again, code }), 401, 'Invalid second factor');
      // One step of drift either way is accepted; a wrong code leaves the mfa_token usable.
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: again, code: '000000' === codeAt(secret, clock.now()) ? '111111' : '000000' }),
        401, 'Invalid second factor');
      const next = codeAt(secret, new Date(clock.now().getTime() + 30_000));
      expect((await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: again, code: next })).status).toBe(200);
    });

    it('two sign-ins racing with one code: exactly one wins (V6.5.1)', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const { secret } = await enrollApp(app, clock, owner);
      nextStep();
      const [a, b] = [await passwordStep(app, owner), await passwordStep(app, owner)];
      // A newer mfa_token voids the older (one sign-in attempt at a time): both race on the newest with the one code.
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: a, code: codeAt(secret, clock.now()) }), 401, 'Invalid second factor');
      const code = codeAt(secret, clock.now());
      const answers = await Promise.all([
        request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: b, code }),
        request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: b, code }),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 401]);
    });

    it('a recovery code signs in once, and the count left shows it (V6.5.2)', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const { recoveryCodes } = await enrollApp(app, clock, owner);
      const signedIn = await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(app, owner), recovery_code: recoveryCodes[3]!.toUpperCase() });
      expect(signedIn.status).toBe(200);
      expect(claimsOf(signedIn.body.token).amr).toEqual(['pwd', 'recovery_code', 'mfa']);
      const account = { ...owner, token: signedIn.body.token as string };
      expect((await request(app).get(`${AUTH}/mfa`).set(bearer(account))).body.recovery_codes).toEqual({ remaining: 9 });
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(app, owner), recovery_code: recoveryCodes[3] }),
        401, 'Invalid second factor');

      // Regenerating voids the old set.
      const fresh = await request(app).post(`${AUTH}/mfa/recovery-codes`).set(bearer(account));
      expect(fresh.status).toBe(200);
      expect(fresh.body.recovery_codes).toHaveLength(10);
      expectError(await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(app, owner), recovery_code: recoveryCodes[4] }),
        401, 'Invalid second factor');
      expect((await request(app).post(`${AUTH}/login/mfa`).send({ mfa_token: await passwordStep(app, owner), recovery_code: fresh.body.recovery_codes[0] })).status).toBe(200);
    });

    it('removing the app (recent authentication) brings back the contract\'s sign-in; an admin removes a member\'s factors and ends their sessions', async () => {
      const { app, clock } = target;
      const owner = await signupOwner(app);
      const member = await joinWithRole(app, owner, 'admin');
      await enrollApp(app, clock, member);
      await enrollApp(app, clock, owner);

      // An admin may not remove an owner's factors.
      expectError(await request(app).delete(`${AUTH}/members/${owner.userId}/mfa`).set(bearer(member)), 403, 'Only an owner can change, remove or grant the owner role');
      const removed = await request(app).delete(`${AUTH}/members/${member.userId}/mfa`).set(bearer(owner));
      expect({ status: removed.status, body: removed.body }).toEqual({ status: 200, body: { removed: true } });
      expectError(await request(app).get(`${AUTH}/me`).set(bearer(member)), 401, 'Invalid or expired token');
      expect((await request(app).post(`${AUTH}/login`).send({ email: member.email, password: PASSWORD })).status).toBe(200);
      expectError(await request(app).delete(`${AUTH}/members/${member.userId}/mfa`).set(bearer(owner)), 409, 'No second factor is enrolled');

      const gone = await request(app).delete(`${AUTH}/mfa/totp`).set(bearer(owner));
      expect({ status: gone.status, body: gone.body }).toEqual({ status: 200, body: { removed: true } });
      expect((await request(app).get(`${AUTH}/mfa`).set(bearer(owner))).body).toEqual({ totp: null, recovery_codes: { remaining: 0 } });
      const plain = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });
      expect(plain.status).toBe(200);
      expect(claimsOf(plain.body.token).amr).toEqual(['pwd']);
    });
  });
}
