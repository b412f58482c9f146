import { randomUUID } from 'node:crypto';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { relyingPartyOf, SimpleWebAuthnCeremonies } from '../../src/adapters/webauthn/simple-webauthn-ceremonies';
import { PasskeyFactor } from '../../src/application/mfa/passkey-factor';
import type { FactorOwner } from '../../src/application/mfa/second-factor';
import type { Repositories } from '../../src/application/ports/repositories';
import { PASSKEY_CEREMONY_TTL_SECONDS } from '../../src/domain/passkey';
import { SoftwareAuthenticator, type SoftwareCredential } from '../../src/testing/software-authenticator';
import { TestClock } from '../../src/testing/test-clock';
import { aTenant, aUser } from '../contract/storage-fixtures';

const ORIGIN = 'https://portcullis.example.test';

async function aMember(repos: Repositories, tenantId?: string): Promise<FactorOwner> {
  const tenant = tenantId ?? aTenant().id;
  if (!tenantId) await repos.tenants.create(aTenant({ id: tenant }));
  const user = aUser(tenant, { role: 'member' });
  await repos.users.create(user);
  return { tenantId: tenant, userId: user.id };
}

async function setup() {
  const storage = createMemoryStorage();
  const { repos } = storage;
  const clock = new TestClock(new Date('2030-01-01T00:00:00.000Z'));
  const webauthn = new SimpleWebAuthnCeremonies(relyingPartyOf(`${ORIGIN}/`));
  const factor = new PasskeyFactor({ repos, webauthn, ids: new RandomUuidGenerator(), clock });
  const authenticator = new SoftwareAuthenticator(ORIGIN);

  /** Registers a passkey of `authenticator` for the member, as the registration ceremony stores one. */
  async function enrol(owner: FactorOwner, by = authenticator): Promise<SoftwareCredential> {
    const challenge = webauthn.newChallenge();
    const options = await webauthn.registrationOptions({ challenge, userHandle: randomUUID(), userName: 'member@example.test', exclude: [] });
    const credential = await webauthn.verifyRegistration(by.register(options), challenge);
    if (!credential) throw new Error('the software authenticator registration did not verify');
    await repos.passkeys.create({
      id: randomUUID(), tenantId: owner.tenantId, userId: owner.userId, credentialId: credential.credentialId, publicKey: credential.publicKey,
      signCount: credential.signCount, transports: credential.transports, backedUp: credential.backedUp, userHandle: 'handle',
      name: 'Laptop', createdAt: clock.now(), lastUsedAt: null,
    });
    return by.credentials[by.credentials.length - 1]!;
  }

  const owner = await aMember(repos);
  return { storage, repos, clock, factor, authenticator, owner, enrol };
}

describe('PasskeyFactor', () => {
  test('a member is enrolled once they have a passkey, and only they are', async () => {
    const { repos, factor, owner, enrol } = await setup();
    const colleague = await aMember(repos, owner.tenantId);
    expect(await factor.enrolled(repos, owner)).toBe(false);

    await enrol(owner);
    expect(await factor.enrolled(repos, owner)).toBe(true);
    expect(await factor.enrolled(repos, colleague)).toBe(false);
    expect(await factor.enrolled(repos, { tenantId: aTenant().id, userId: owner.userId })).toBe(false);
  });

  test('V6.3.3: an assertion answering the options issued for the member and attempt is the second factor, and records the use', async () => {
    const { repos, clock, factor, authenticator, owner, enrol } = await setup();
    await enrol(owner);
    const attempt = randomUUID();
    const options = await factor.authenticationOptions(owner, attempt);
    clock.advance({ minutes: 1 });

    expect(await factor.verify(repos, owner, authenticator.assert(options), attempt)).toBe(true);
    const [stored] = await repos.passkeys.listOf(owner.tenantId, owner.userId);
    expect(stored).toMatchObject({ signCount: 1, lastUsedAt: clock.now() });
  });

  test('V6.5.1: the challenge is used once: a replay of an accepted assertion, or a second answer to it, is refused', async () => {
    const { repos, factor, authenticator, owner, enrol } = await setup();
    const credential = await enrol(owner);
    const attempt = randomUUID();
    const options = await factor.authenticationOptions(owner, attempt);
    const assertion = authenticator.assert(options);

    expect(await factor.verify(repos, owner, assertion, attempt)).toBe(true);
    expect(await factor.verify(repos, owner, assertion, attempt)).toBe(false);
    expect(await factor.verify(repos, owner, authenticator.assert(options, { credential }), attempt)).toBe(false);
  });

  test('V6.5.1: a wrong answer spends the challenge too; the next answer needs new options', async () => {
    const { repos, factor, authenticator, owner, enrol } = await setup();
    await enrol(owner);
    const attempt = randomUUID();
    const options = await factor.authenticationOptions(owner, attempt);

    expect(await factor.verify(repos, owner, authenticator.assert(options, { origin: 'https://evil.example.test' }), attempt)).toBe(false);
    expect(await factor.verify(repos, owner, authenticator.assert(options), attempt)).toBe(false);
    expect(await factor.verify(repos, owner, authenticator.assert(await factor.authenticationOptions(owner, attempt)), attempt)).toBe(true);
  });

  test('V6.3.3: an assertion for another sign-in attempt is refused, and leaves that attempt its challenge', async () => {
    const { repos, factor, authenticator, owner, enrol } = await setup();
    await enrol(owner);
    const attempt = randomUUID();
    const options = await factor.authenticationOptions(owner, attempt);
    const assertion = authenticator.assert(options);

    expect(await factor.verify(repos, owner, assertion, randomUUID())).toBe(false);
    expect(await factor.verify(repos, owner, assertion, attempt)).toBe(true);
  });

  test("V6.3.3: another member's credential does not prove this member's second factor, even answering this member's challenge", async () => {
    const { repos, factor, owner, enrol } = await setup();
    const colleague = await aMember(repos, owner.tenantId);
    await enrol(owner);
    const theirs = new SoftwareAuthenticator(ORIGIN);
    const credential = await enrol(colleague, theirs);
    const attempt = randomUUID();
    const options = await factor.authenticationOptions(owner, attempt);

    expect(await factor.verify(repos, owner, theirs.assert(options, { credential }), attempt)).toBe(false);
    expect((await repos.passkeys.listOf(colleague.tenantId, colleague.userId))[0]?.signCount).toBe(0);
  });

  test('V6.3.3: an assertion from another origin, another relying party, or with a forged signature is refused', async () => {
    const { repos, factor, authenticator, owner, enrol } = await setup();
    await enrol(owner);
    const attempt = randomUUID();
    const forger = new SoftwareAuthenticator(ORIGIN);
    await enrol(await aMember(repos, owner.tenantId), forger);
    const answers = [
      { origin: 'https://portcullis.example.test.evil.example' },
      { rpId: 'evil.example' },
      { signWith: forger.credentials[0]!.privateKey },
    ];
    for (const answer of answers) {
      const options = await factor.authenticationOptions(owner, attempt);
      expect(await factor.verify(repos, owner, authenticator.assert(options, answer), attempt)).toBe(false);
    }
    expect((await repos.passkeys.listOf(owner.tenantId, owner.userId))[0]).toMatchObject({ signCount: 0, lastUsedAt: null });
  });

  test('V6.5.1: a challenge answered after it expired is refused', async () => {
    const { repos, clock, factor, authenticator, owner, enrol } = await setup();
    await enrol(owner);
    const attempt = randomUUID();
    const options = await factor.authenticationOptions(owner, attempt);
    clock.advance({ seconds: PASSKEY_CEREMONY_TTL_SECONDS });

    expect(await factor.verify(repos, owner, authenticator.assert(options), attempt)).toBe(false);
  });

  test('a cloned authenticator (a counter that did not move forward) is refused', async () => {
    const { repos, factor, authenticator, owner, enrol } = await setup();
    const credential = await enrol(owner);
    const attempt = randomUUID();
    expect(await factor.verify(repos, owner, authenticator.assert(await factor.authenticationOptions(owner, attempt)), attempt)).toBe(true);

    credential.signCount = 0;
    expect(await factor.verify(repos, owner, authenticator.assert(await factor.authenticationOptions(owner, attempt)), attempt)).toBe(false);
  });

  test('malformed proofs are refused, never thrown', async () => {
    const { repos, factor, owner, enrol } = await setup();
    await enrol(owner);
    const attempt = randomUUID();
    await factor.authenticationOptions(owner, attempt);
    for (const proof of [undefined, null, 'x', 42, [], {}, { id: 'abc', response: {} }, { id: 'a b', response: { clientDataJSON: 'e30' } }]) {
      await expect(factor.verify(repos, owner, proof, attempt)).resolves.toBe(false);
    }
  });
});
