import type { RequestListener } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { request } from '../support/contract-request';
import { AUTH, bearer, expectError, signupOwner, type Account } from '../support/http-fixtures';

export interface PasskeysTarget {
  readonly app: RequestListener;
  /** Another instance over the same database, when the backend has one (Postgres). */
  readonly other?: RequestListener;
  close(): Promise<void>;
}

/** PUBLIC_URL's origin in the test configuration (the development default). */
export const TEST_ORIGIN = 'http://localhost:3000';
const INVALID_PASSKEY = 'Invalid passkey';

export async function registerPasskey(app: RequestListener, account: Account, authenticator: SoftwareAuthenticator, name = 'Laptop') {
  const options = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(account));
  expect(options.status).toBe(200);
  const res = await request(app).post(`${AUTH}/mfa/passkeys`).set(bearer(account)).send({ name, response: authenticator.register(options.body) });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; created_at: string };
}

async function signInOptions(app: RequestListener): Promise<{ ceremony: string; options: unknown }> {
  const res = await request(app).post(`${AUTH}/login/passkey/options`);
  expect(res.status).toBe(200);
  return res.body as { ceremony: string; options: unknown };
}

/**
 * Passkeys over HTTP, the same on every backend: registered, listed, renamed, removed; a
 * passwordless sign-in that starts a session; and the refusals of a sign-in, each the one 401.
 */
export function describePasskeysFlow(name: string, open: () => Promise<PasskeysTarget>): void {
  describe(`${name}: passkeys over HTTP`, () => {
    let target: PasskeysTarget;
    beforeAll(async () => {
      target = await open();
    }, 60_000);
    afterAll(() => target?.close());

    it('registers, lists, renames and removes a member\'s passkeys (V6.2.x enrolment; resident key and user verification preferred)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      const options = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(owner));
      expect(options.body).toMatchObject({
        rp: { id: 'localhost' }, user: { name: owner.email }, attestation: 'none', excludeCredentials: [],
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      const added = await request(app).post(`${AUTH}/mfa/passkeys`).set(bearer(owner)).send({ name: 'Laptop', response: authenticator.register(options.body) });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({ id: expect.any(String), name: 'Laptop', created_at: expect.any(String) });
      const second = await registerPasskey(app, owner, new SoftwareAuthenticator(TEST_ORIGIN), 'Phone');

      // The next options exclude the credentials the member has.
      const again = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(owner));
      expect((again.body.excludeCredentials as { id: string }[]).map((c) => c.id).sort()).toHaveLength(2);

      const list = await request(app).get(`${AUTH}/mfa/passkeys`).set(bearer(owner));
      expect(list.body).toEqual({ passkeys: [
        { id: added.body.id, name: 'Laptop', created_at: added.body.created_at, last_used_at: null },
        { id: second.id, name: 'Phone', created_at: second.created_at, last_used_at: null },
      ] });
      expect((await request(app).patch(`${AUTH}/mfa/passkeys/${second.id}`).set(bearer(owner)).send({ name: 'Old phone' })).status).toBe(200);
      expect((await request(app).delete(`${AUTH}/mfa/passkeys/${added.body.id}`).set(bearer(owner))).status).toBe(204);
      expect((await request(app).get(`${AUTH}/mfa/passkeys`).set(bearer(owner))).body.passkeys.map((p: { name: string }) => p.name)).toEqual(['Old phone']);
      expectError(await request(app).delete(`${AUTH}/mfa/passkeys/${added.body.id}`).set(bearer(owner)), 404, 'Passkey not found');

      // Another member of another tenant reaches none of them.
      const stranger = await signupOwner(app, 'Elsewhere');
      expectError(await request(app).patch(`${AUTH}/mfa/passkeys/${second.id}`).set(bearer(stranger)).send({ name: 'Mine' }), 404, 'Passkey not found');
      expectError(await request(app).delete(`${AUTH}/mfa/passkeys/${second.id}`).set(bearer(stranger)), 404, 'Passkey not found');
    });

    it('a registration answers its own challenge once: a replayed or foreign-origin response is refused (V6.5.1)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      const options = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(owner));
      const response = authenticator.register(options.body);
      expect((await request(app).post(`${AUTH}/mfa/passkeys`).set(bearer(owner)).send({ name: 'A', response })).status).toBe(201);
      expectError(await request(app).post(`${AUTH}/mfa/passkeys`).set(bearer(owner)).send({ name: 'A', response }), 400, 'Invalid passkey registration');

      const fresh = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(owner));
      const phished = authenticator.register(fresh.body, { origin: 'https://evil.example' });
      expectError(await request(app).post(`${AUTH}/mfa/passkeys`).set(bearer(owner)).send({ name: 'B', response: phished }), 400, 'Invalid passkey registration');
      // Another member's challenge is not this member's.
      const other = await signupOwner(app);
      const theirs = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(other));
      expectError(await request(app).post(`${AUTH}/mfa/passkeys`).set(bearer(owner)).send({ name: 'C', response: authenticator.register(theirs.body) }), 400, 'Invalid passkey registration');
    });

    it('signs in without a password: a session starts, its token works, and the passkey shows its last use (V6.3.x passwordless)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      const added = await registerPasskey(app, owner, authenticator);

      const { ceremony, options } = await signInOptions(app);
      expect(options).toMatchObject({ rpId: 'localhost', allowCredentials: [], userVerification: 'preferred' });
      const res = await request(app).post(`${AUTH}/login/passkey`).send({ ceremony, response: authenticator.assert(options) });
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: { token: expect.any(String), expires_in: '24h' } });
      const me = await request(app).get(`${AUTH}/me`).set(bearer({ token: res.body.token as string }));
      expect(me.body).toMatchObject({ user_id: owner.userId, tenant_id: owner.tenantId });
      const [listed] = (await request(app).get(`${AUTH}/mfa/passkeys`).set(bearer(owner))).body.passkeys as { id: string; last_used_at: string | null }[];
      expect(listed).toMatchObject({ id: added.id, last_used_at: expect.any(String) });
    });

    it('refuses every wrong sign-in with the one 401 Invalid passkey: replayed or unknown ceremony, unknown credential, bad signature, '
      + 'wrong origin or rp id, another user handle, counter gone backwards (V6.5.1, V6.6.x)', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      await registerPasskey(app, owner, authenticator);
      const attempt = async (make: (options: unknown) => Record<string, unknown>, ceremonyOf?: (c: string) => string) => {
        const { ceremony, options } = await signInOptions(app);
        return request(app).post(`${AUTH}/login/passkey`).send({ ceremony: ceremonyOf ? ceremonyOf(ceremony) : ceremony, response: make(options) });
      };

      // Replayed: a ceremony answered once is spent.
      const { ceremony, options } = await signInOptions(app);
      const response = authenticator.assert(options);
      expect((await request(app).post(`${AUTH}/login/passkey`).send({ ceremony, response })).status).toBe(200);
      expectError(await request(app).post(`${AUTH}/login/passkey`).send({ ceremony, response }), 401, INVALID_PASSKEY);
      // A ceremony nobody was given.
      expectError(await attempt((o) => authenticator.assert(o), () => 'ab'.repeat(32)), 401, INVALID_PASSKEY);
      // A credential this service never registered.
      const stranger = new SoftwareAuthenticator(TEST_ORIGIN);
      stranger.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'dXNlcg' } });
      expectError(await attempt((o) => stranger.assert(o)), 401, INVALID_PASSKEY);
      // Signed with another key.
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      expectError(await attempt((o) => authenticator.assert(o, { signWith: privateKey })), 401, INVALID_PASSKEY);
      // Another origin (a phishing site), another relying party.
      expectError(await attempt((o) => authenticator.assert(o, { origin: 'https://evil.example' })), 401, INVALID_PASSKEY);
      expectError(await attempt((o) => authenticator.assert(o, { rpId: 'evil.example' })), 401, INVALID_PASSKEY);
      // A user handle other than the one the credential was made for (the signature does not cover it).
      const credential = authenticator.credentials[0]!;
      const handle = credential.userHandle;
      Object.assign(credential, { userHandle: Buffer.from('someone else').toString('base64url') });
      expectError(await attempt((o) => authenticator.assert(o)), 401, INVALID_PASSKEY);
      Object.assign(credential, { userHandle: handle });
      // A cloned authenticator: its counter goes backwards.
      authenticator.credentials[0]!.signCount = 0;
      expectError(await attempt((o) => authenticator.assert(o)), 401, INVALID_PASSKEY);
      // Malformed bodies are 400s that name the field, never 500s.
      const bad = await request(app).post(`${AUTH}/login/passkey`).send({ ceremony: 'nope', response: 'nope' });
      expect(bad.status).toBe(400);
    });

    it('a removed passkey signs nobody in', async () => {
      const { app } = target;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      const added = await registerPasskey(app, owner, authenticator);
      await request(app).delete(`${AUTH}/mfa/passkeys/${added.id}`).set(bearer(owner)).expect(204);
      const { ceremony, options } = await signInOptions(app);
      expectError(await request(app).post(`${AUTH}/login/passkey`).send({ ceremony, response: authenticator.assert(options) }), 401, INVALID_PASSKEY);
    });

    it('the options on one instance and the verification on another sharing the database', async () => {
      const { app, other } = target;
      if (!other) return;
      const owner = await signupOwner(app);
      const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
      const options = await request(app).post(`${AUTH}/mfa/passkeys/options`).set(bearer(owner));
      expect((await request(other).post(`${AUTH}/mfa/passkeys`).set(bearer(owner)).send({ name: 'A', response: authenticator.register(options.body) })).status).toBe(201);
      const signIn = await signInOptions(other);
      const res = await request(app).post(`${AUTH}/login/passkey`).send({ ceremony: signIn.ceremony, response: authenticator.assert(signIn.options) });
      expect(res.status).toBe(200);
    });
  });
}
