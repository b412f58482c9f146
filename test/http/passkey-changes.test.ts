import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { SoftwareAuthenticator } from '../../src/testing/software-authenticator';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { type Account, AUTH, bearer, createApiKey, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';
import { registerPasskey, TEST_ORIGIN } from '../http-db/passkeys-flow';

/** REAUTH_WINDOW_SECONDS unless set. */
const WINDOW_SECONDS = 600;
const REQUIRED = 'Recent authentication required';

/**
 * Adding or removing a passkey changes how a member signs in: recent authentication, the audit trail,
 * a notice. A passwordless sign-in from a device the account has not seen is told as a password one is.
 */
describe('passkey changes', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    clock = new TestClock();
    t = await buildTestApp({}, { clock });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  async function subjectsTo(email: string): Promise<string[]> {
    await t.assembly.mailWorker!.deliverNow();
    return mailbox.messages().filter((m) => m.to === email && m.subject.includes('passkey')).map((m) => m.subject);
  }

  it('V7.5.1, V6.3.1: registering or removing a passkey wants a recent sign-in, listing and renaming do not; an API key never has one', async () => {
    const owner = await signupOwner(t.app);
    const added = await registerPasskey(t.app, owner, new SoftwareAuthenticator(TEST_ORIGIN));
    const key = await createApiKey(t.app, owner);

    clock.advance({ seconds: WINDOW_SECONDS + 1 });
    for (const headers of [bearer(owner), { 'x-api-key': key }]) {
      expectError(await request(t.app).post(`${AUTH}/mfa/passkeys/options`).set(headers), 403, REQUIRED);
      expectError(await request(t.app).post(`${AUTH}/mfa/passkeys`).set(headers).send({ name: 'Late', response: { id: 'x', response: {} } }), 403, REQUIRED);
      expectError(await request(t.app).delete(`${AUTH}/mfa/passkeys/${added.id}`).set(headers), 403, REQUIRED);
    }
    expect((await request(t.app).get(`${AUTH}/mfa/passkeys`).set(bearer(owner))).body.passkeys).toHaveLength(1);
    expect((await request(t.app).patch(`${AUTH}/mfa/passkeys/${added.id}`).set(bearer(owner)).send({ name: 'Renamed' })).status).toBe(200);

    expect((await request(t.app).post(`${AUTH}/reauthenticate`).set(bearer(owner)).send({ password: PASSWORD })).status).toBe(200);
    expect((await request(t.app).delete(`${AUTH}/mfa/passkeys/${added.id}`).set(bearer(owner))).status).toBe(204);
  });

  it('V6.3.7: adding and removing a passkey are audited with the method and name, and the member is told of each by e-mail', async () => {
    const owner = await signupOwner(t.app);
    const added = await registerPasskey(t.app, owner, new SoftwareAuthenticator(TEST_ORIGIN), 'Work laptop');
    expect((await request(t.app).delete(`${AUTH}/mfa/passkeys/${added.id}`).set(bearer(owner))).status).toBe(204);

    const res = await request(t.app).get(`${AUTH}/audit-events`).set(bearer(owner));
    const changes = (res.body.events as { action: string; target_id: string | null; details: unknown }[])
      .filter((e) => e.action.startsWith('mfa.'));
    expect(changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ action: 'mfa.enrolled', target_id: added.id, details: { method: 'passkey', name: 'Work laptop' } }),
      expect.objectContaining({ action: 'mfa.removed', target_id: added.id, details: { method: 'passkey', name: 'Work laptop' } }),
    ]));
    expect(changes).toHaveLength(2);
    expect((await subjectsTo(owner.email)).sort()).toEqual([
      expect.stringMatching(/^A passkey was added to your account in /),
      expect.stringMatching(/^A passkey was removed from your account in /),
    ]);
  });

  it('V6.3.5: a passwordless sign-in from a device the account has not seen sends one new sign-in notice and hands it a proof; a known device none', async () => {
    const email = uniqueEmail('passkey-notice');
    const signup = await request(t.app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, tenant_name: 'Passkey Notices' });
    expect(signup.status).toBe(201);
    const signupProof = signup.headers['x-device-proof'] as string;
    const authenticator = new SoftwareAuthenticator(TEST_ORIGIN);
    await registerPasskey(t.app, { token: signup.body.token as string } as Account, authenticator);
    const other = await signupOwner(t.app);
    const otherProof = (await request(t.app).post(`${AUTH}/login`).send({ email: other.email, password: PASSWORD })).headers['x-device-proof'] as string;
    const newSignIns = async () => {
      await t.assembly.mailWorker!.deliverNow();
      return mailbox.messages().filter((m) => m.to === email && m.subject.startsWith('New sign-in')).length;
    };
    const signIn = async (proof?: string) => {
      const { ceremony, options } = (await request(t.app).post(`${AUTH}/login/passkey/options`).expect(200)).body as { ceremony: string; options: unknown };
      const sent = request(t.app).post(`${AUTH}/login/passkey`).set('User-Agent', 'passkey-device/1.0');
      if (proof !== undefined) sent.set('X-Device-Proof', proof);
      const res = await sent.send({ ceremony, response: authenticator.assert(options) });
      expect(res.status).toBe(200);
      return res;
    };

    // The device the account was made on is known.
    await signIn(signupProof);
    expect(await newSignIns()).toBe(0);
    // A device without a proof, or with another account's: one notice each, and a proof handed back.
    const fresh = await signIn();
    const freshProof = fresh.headers['x-device-proof'] as string;
    expect(freshProof).toMatch(/^v1\./);
    expect(fresh.headers['set-cookie']?.[0]).toMatch(/^pc_device=v1\..*HttpOnly; SameSite=Strict/);
    expect(await newSignIns()).toBe(1);
    await signIn(otherProof);
    expect(await newSignIns()).toBe(2);
    // The proof it was handed makes it known, to a passwordless sign-in and to a password sign-in
    // alike (whose second step is the passkey, a second factor of this member).
    await signIn(freshProof);
    const first = await request(t.app).post(`${AUTH}/login`).set('X-Device-Proof', freshProof).send({ email, password: PASSWORD });
    expect({ status: first.status, error: first.body.error }).toEqual({ status: 401, error: 'Second factor required' });
    const mfaToken = first.body.mfa_token as string;
    const stepOptions = (await request(t.app).post(`${AUTH}/login/mfa/passkey/options`).send({ mfa_token: mfaToken }).expect(200)).body;
    const second = await request(t.app).post(`${AUTH}/login/mfa`).set('X-Device-Proof', freshProof)
      .send({ mfa_token: mfaToken, passkey: authenticator.assert(stepOptions) });
    expect(second.status).toBe(200);
    expect(await newSignIns()).toBe(2);
    const [notice] = mailbox.messages().filter((m) => m.to === email && m.subject.startsWith('New sign-in'));
    expect(notice!.subject).toBe('New sign-in to your account in Passkey Notices');
    expect(notice!.text).toContain('"passkey-device/1.0"');
  });
});
