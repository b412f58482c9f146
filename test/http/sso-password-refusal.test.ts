import type { DevelopmentMailbox } from '../../src/adapters/mail/development-mailbox';
import { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import { TestClock } from '../../src/testing/test-clock';
import { describeSsoPasswordRefusalFlow, joinAt, login, ssoTenant } from '../http-db/sso-password-refusal-flow';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, expectError, PASSWORD } from '../support/http-fixtures';
import { linkToken } from '../support/mail-links';
import { OidcTestProvider } from '../support/oidc-test-provider';
import { FAST_SCRYPT } from '../support/test-use-cases';

describeSsoPasswordRefusalFlow('memory', async () => {
  const dns = new InMemoryDnsTxtRecords();
  const t = await buildTestApp({}, { clock: new TestClock(), dns });
  return { app: t.app, dns, close: () => t.assembly.close() };
});

/** Real scrypt, counting the verifications: the work a sign-in does with the password it was given. */
class CountingHasher extends ScryptPasswordHasher {
  verified = 0;

  override async verify(password: string, hash: string): Promise<boolean> {
    this.verified += 1;
    return super.verify(password, hash);
  }
}

describe('single sign-on required, on memory: what the password paths cost and send', () => {
  let t: TestApp;
  let provider: OidcTestProvider;
  let mailbox: DevelopmentMailbox;
  const dns = new InMemoryDnsTxtRecords();
  const hasher = new CountingHasher(FAST_SCRYPT);
  beforeAll(async () => {
    [t, provider] = await Promise.all([buildTestApp({}, { clock: new TestClock(), dns, hasher }), OidcTestProvider.start()]);
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(async () => {
    await Promise.all([t.assembly.close(), provider.close()]);
  });

  async function requestReset(email: string): Promise<void> {
    await request(t.app).post(`${AUTH}/password/forgot`).send({ email }).expect(202);
    await t.useCases.forgotPassword.settled();
    await t.assembly.mailWorker!.deliverNow();
  }

  it('V6.3.8: the refusal verifies the password it was given, as a wrong password costs, whether it is right or not', async () => {
    const org = await ssoTenant({ app: t.app, dns, close: async () => undefined }, provider);
    const member = await joinAt(t.app, org.owner, org.domain);
    for (const password of [PASSWORD, 'a wrong password']) {
      const before = hasher.verified;
      expectError(await login(t.app, member.email, password), 401, 'Invalid credentials');
      expect(hasher.verified - before).toBe(1);
    }
    const before = hasher.verified;
    expectError(await login(t.app, org.owner.email, 'a wrong password'), 401, 'Invalid credentials');
    expect(hasher.verified - before).toBe(1);
  });

  it('V6.3.8: a reset request for such an address is answered as any other, and sends nothing', async () => {
    const org = await ssoTenant({ app: t.app, dns, close: async () => undefined }, provider);
    const member = await joinAt(t.app, org.owner, org.domain);
    await requestReset(member.email);
    expect(mailbox.latestTo(member.email)?.subject ?? '').not.toMatch(/reset/i);
    await requestReset(org.owner.email);
    expect(mailbox.latestTo(org.owner.email)?.subject).toMatch(/reset/i);
  });

  it('a reset link sent before sso_required was switched on no longer sets a password', async () => {
    const org = await ssoTenant({ app: t.app, dns, close: async () => undefined }, provider, false);
    const member = await joinAt(t.app, org.owner, org.domain);
    await requestReset(member.email);
    const token = linkToken(mailbox.latestTo(member.email)!.text, 'reset-password');
    await org.requireSso(true);
    expectError(await request(t.app).post(`${AUTH}/password/reset`).send({ token, password: 'a brand new passphrase' }), 400, 'Invalid or expired reset token');
    await org.requireSso(false);
    expectError(await login(t.app, member.email, 'a brand new passphrase'), 401, 'Invalid credentials');
  });
});
