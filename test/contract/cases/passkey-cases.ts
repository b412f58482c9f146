import { randomUUID } from 'node:crypto';
import { PasskeyAlreadyRegistered } from '../../../src/domain/errors';
import {
  aPasskey, aPasskeyChallenge, addUser, aSignInCeremony, minutesFrom, seedTenant, type StorageGetter,
} from '../storage-fixtures';

const base = new Date('2030-01-01T00:00:00.000Z');
const at = (minutes: number): Date => minutesFrom(base, minutes);

export function describePasskeyCases(storage: StorageGetter): void {
  describe('passkeys', () => {
    test("a created passkey is listed for its member, oldest first, with everything it recorded; others' lists stay empty", async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const colleague = await addUser(repos, tenant.id, 'member');
      const newer = aPasskey(tenant.id, user.id, { createdAt: at(2), name: 'Phone', transports: [], backedUp: true, signCount: 7 });
      const older = aPasskey(tenant.id, user.id, { createdAt: at(1) });
      await repos.passkeys.create(newer);
      await repos.passkeys.create(older);

      expect(await repos.passkeys.listOf(tenant.id, user.id)).toEqual([older, newer]);
      expect(await repos.passkeys.listOf(tenant.id, colleague.id)).toEqual([]);
      const other = await seedTenant(repos);
      expect(await repos.passkeys.listOf(other.tenant.id, user.id)).toEqual([]);
      expect(await repos.passkeys.listOf(tenant.id, 'not-a-uuid')).toEqual([]);
    });

    test('a credential id is registered once across the service, whichever tenant tries again', async () => {
      const { repos } = storage();
      const a = await seedTenant(repos);
      const b = await seedTenant(repos);
      const first = aPasskey(a.tenant.id, a.user.id);
      await repos.passkeys.create(first);

      await expect(repos.passkeys.create(aPasskey(b.tenant.id, b.user.id, { credentialId: first.credentialId })))
        .rejects.toBeInstanceOf(PasskeyAlreadyRegistered);
      await expect(repos.passkeys.create(aPasskey(a.tenant.id, a.user.id, { credentialId: first.credentialId })))
        .rejects.toBeInstanceOf(PasskeyAlreadyRegistered);
      expect(await repos.passkeys.listOf(b.tenant.id, b.user.id)).toEqual([]);
    });

    test('only its member renames or removes a passkey: not a colleague, not another tenant; removing answers it once', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const colleague = await addUser(repos, tenant.id, 'admin');
      const other = await seedTenant(repos);
      const passkey = aPasskey(tenant.id, user.id);
      await repos.passkeys.create(passkey);

      expect(await repos.passkeys.rename(tenant.id, colleague.id, passkey.id, 'Theirs')).toBe(false);
      expect(await repos.passkeys.rename(other.tenant.id, user.id, passkey.id, 'Theirs')).toBe(false);
      expect(await repos.passkeys.rename(tenant.id, user.id, randomUUID(), 'Nothing')).toBe(false);
      expect(await repos.passkeys.rename(tenant.id, user.id, 'not-a-uuid', 'Nothing')).toBe(false);
      expect(await repos.passkeys.rename(tenant.id, user.id, passkey.id, 'Security key')).toBe(true);
      expect(await repos.passkeys.listOf(tenant.id, user.id)).toEqual([{ ...passkey, name: 'Security key' }]);

      expect(await repos.passkeys.remove(tenant.id, colleague.id, passkey.id)).toBeNull();
      expect(await repos.passkeys.remove(other.tenant.id, user.id, passkey.id)).toBeNull();
      expect(await repos.passkeys.remove(tenant.id, user.id, passkey.id)).toEqual({ ...passkey, name: 'Security key' });
      expect(await repos.passkeys.remove(tenant.id, user.id, passkey.id)).toBeNull();
      expect(await repos.passkeys.listOf(tenant.id, user.id)).toEqual([]);
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId)).toBeNull();
    });

    test('the credential lookup finds a passkey across tenants by its exact id, and not once its member is removed', async () => {
      const { repos } = storage();
      const { tenant } = await seedTenant(repos);
      const member = await addUser(repos, tenant.id, 'member');
      const passkey = aPasskey(tenant.id, member.id);
      await repos.passkeys.create(passkey);

      expect(await repos.passkeys.findByCredentialId(passkey.credentialId)).toEqual(passkey);
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId.toUpperCase())).toBeNull();
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId.slice(0, -1))).toBeNull();
      expect(await repos.passkeys.findByCredentialId('%')).toBeNull();

      expect(await repos.users.markRemoved(tenant.id, member.id, new Date())).toBe(true);
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId)).toBeNull();
    });

    test('a use is recorded only while the counter is the one checked: a stale counter writes nothing', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const passkey = aPasskey(tenant.id, user.id, { signCount: 4 });
      await repos.passkeys.create(passkey);
      const use = { fromSignCount: 4, toSignCount: 5, backedUp: true, at: at(10) };

      expect(await repos.passkeys.recordUse(tenant.id, passkey.id, use)).toBe(true);
      expect(await repos.passkeys.recordUse(tenant.id, passkey.id, { ...use, toSignCount: 6, at: at(11) })).toBe(false);
      expect(await repos.passkeys.findByCredentialId(passkey.credentialId))
        .toEqual({ ...passkey, signCount: 5, backedUp: true, lastUsedAt: at(10) });

      const other = await seedTenant(repos);
      expect(await repos.passkeys.recordUse(other.tenant.id, passkey.id, { ...use, fromSignCount: 5, toSignCount: 6 })).toBe(false);
      expect(await repos.passkeys.recordUse(tenant.id, randomUUID(), { ...use, fromSignCount: 5, toSignCount: 6 })).toBe(false);
      expect((await repos.passkeys.listOf(tenant.id, user.id))[0]?.signCount).toBe(5);
    });

    test('V6.5.1: a challenge is consumed once, by its member, purpose and attempt only, and not after it expires', async () => {
      const { repos } = storage();
      const { tenant, user } = await seedTenant(repos);
      const colleague = await addUser(repos, tenant.id, 'member');
      const registration = aPasskeyChallenge(tenant.id, user.id, { createdAt: at(0), expiresAt: at(5) });
      const attempt = randomUUID();
      const factor = aPasskeyChallenge(tenant.id, user.id, { purpose: 'second_factor', attemptKey: attempt, createdAt: at(0), expiresAt: at(5) });
      await repos.passkeyChallenges.create(registration);
      await repos.passkeyChallenges.create(factor);
      const consume = repos.passkeyChallenges.consume.bind(repos.passkeyChallenges);

      expect(await consume(tenant.id, colleague.id, 'registration', registration.challenge, null, at(1))).toBe(false);
      expect(await consume(tenant.id, user.id, 'second_factor', registration.challenge, null, at(1))).toBe(false);
      expect(await consume(tenant.id, user.id, 'registration', factor.challenge, null, at(1))).toBe(false);
      expect(await consume(tenant.id, user.id, 'second_factor', factor.challenge, randomUUID(), at(1))).toBe(false);
      expect(await consume(tenant.id, user.id, 'second_factor', factor.challenge, null, at(1))).toBe(false);

      expect(await consume(tenant.id, user.id, 'registration', registration.challenge, null, at(1))).toBe(true);
      expect(await consume(tenant.id, user.id, 'registration', registration.challenge, null, at(1))).toBe(false);
      expect(await consume(tenant.id, user.id, 'second_factor', factor.challenge, attempt, at(2))).toBe(true);
      expect(await consume(tenant.id, user.id, 'second_factor', factor.challenge, attempt, at(2))).toBe(false);

      const other = await seedTenant(repos);
      const theirs = aPasskeyChallenge(tenant.id, user.id, { createdAt: at(0), expiresAt: at(5) });
      await repos.passkeyChallenges.create(theirs);
      expect(await consume(other.tenant.id, user.id, 'registration', theirs.challenge, null, at(1))).toBe(false);
      expect(await consume(tenant.id, user.id, 'registration', theirs.challenge, null, at(5))).toBe(false);
      expect(await consume(tenant.id, user.id, 'registration', theirs.challenge, null, at(4))).toBe(true);
    });

    test('V6.5.1: a passwordless sign-in ceremony answers its challenge once, and not after it expires', async () => {
      const { repos } = storage();
      const ceremony = aSignInCeremony({ createdAt: at(0), expiresAt: at(5) });
      const expiring = aSignInCeremony({ createdAt: at(0), expiresAt: at(5) });
      await repos.passkeyChallenges.beginSignIn(ceremony);
      await repos.passkeyChallenges.beginSignIn(expiring);

      expect(await repos.passkeyChallenges.consumeSignIn(ceremony.handleHash, at(1))).toBe(ceremony.challenge);
      expect(await repos.passkeyChallenges.consumeSignIn(ceremony.handleHash, at(1))).toBeNull();
      expect(await repos.passkeyChallenges.consumeSignIn(expiring.handleHash, at(5))).toBeNull();
      expect(await repos.passkeyChallenges.consumeSignIn(aSignInCeremony().handleHash, at(1))).toBeNull();
    });

    // Far in the past, and the live ones expire far in the future: other suites sharing the database
    // start ceremonies on their own clocks, and neither side's clean-up may reach the other's.
    test('starting a sign-in ceremony drops the ones that expired before it, and keeps the live ones', async () => {
      const { repos } = storage();
      const past = new Date('2000-01-01T00:00:00.000Z');
      const distant = new Date('2099-01-01T00:00:00.000Z');
      const stale = aSignInCeremony({ createdAt: past, expiresAt: minutesFrom(past, 5) });
      const live = aSignInCeremony({ createdAt: minutesFrom(past, 1), expiresAt: distant });
      await repos.passkeyChallenges.beginSignIn(stale);
      await repos.passkeyChallenges.beginSignIn(live);
      await repos.passkeyChallenges.beginSignIn(aSignInCeremony({ createdAt: minutesFrom(past, 10), expiresAt: distant }));

      // Consumed at a time it would still be live: only its deletion refuses it.
      expect(await repos.passkeyChallenges.consumeSignIn(stale.handleHash, minutesFrom(past, 1))).toBeNull();
      expect(await repos.passkeyChallenges.consumeSignIn(live.handleHash, minutesFrom(past, 11))).toBe(live.challenge);
    });
  });
}
