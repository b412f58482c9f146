import type { PasskeyChallengeRepository, PasskeyRepository } from '../../../application/ports/repositories';
import { PasskeyAlreadyRegistered } from '../../../domain/errors';
import type { Passkey } from '../../../domain/passkey';
import type { StoredPasskeyChallenge, StoredSignInCeremony, StoredUser } from './memory-state';

const byCreated = (a: Passkey, b: Passkey): number =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Passkeys over one state's maps, as the SQL table keeps them (a passkey is its tenant's and member's only). */
export function memoryPasskeys(passkeys: Map<string, Passkey>, users: Map<string, StoredUser>): PasskeyRepository {
  const own = (tenantId: string, userId: string, passkeyId: string): Passkey | null => {
    const passkey = passkeys.get(passkeyId.toLowerCase());
    return passkey && passkey.tenantId === tenantId && passkey.userId === userId ? passkey : null;
  };
  return {
    async create(passkey) {
      if (passkeys.has(passkey.id)) throw new Error('duplicate key value violates unique constraint "passkeys_pkey"');
      for (const p of passkeys.values()) if (p.credentialId === passkey.credentialId) throw new PasskeyAlreadyRegistered();
      passkeys.set(passkey.id, passkey);
    },
    async listOf(tenantId, userId) {
      return [...passkeys.values()].filter((p) => p.tenantId === tenantId && p.userId === userId).sort(byCreated);
    },
    async findByCredentialId(credentialId) {
      for (const p of passkeys.values()) {
        if (p.credentialId !== credentialId) continue;
        const user = users.get(p.userId);
        return user && user.tenantId === p.tenantId && user.removedAt === null && user.suspendedAt === null ? p : null;
      }
      return null;
    },
    async rename(tenantId, userId, passkeyId, name) {
      const passkey = own(tenantId, userId, passkeyId);
      if (!passkey) return false;
      passkeys.set(passkey.id, { ...passkey, name });
      return true;
    },
    async remove(tenantId, userId, passkeyId) {
      const passkey = own(tenantId, userId, passkeyId);
      if (!passkey) return null;
      passkeys.delete(passkey.id);
      return passkey;
    },
    async recordUse(tenantId, passkeyId, use) {
      const passkey = passkeys.get(passkeyId);
      if (!passkey || passkey.tenantId !== tenantId || passkey.signCount !== use.fromSignCount) return false;
      passkeys.set(passkey.id, { ...passkey, signCount: use.toSignCount, backedUp: use.backedUp, lastUsedAt: use.at });
      return true;
    },
  };
}

export function memoryPasskeyChallenges(
  challenges: Map<string, StoredPasskeyChallenge>, signIns: Map<string, StoredSignInCeremony>,
): PasskeyChallengeRepository {
  return {
    async create(challenge) {
      if (challenges.has(challenge.id)) throw new Error('duplicate key value violates unique constraint "passkey_challenges_pkey"');
      challenges.set(challenge.id, { ...challenge, usedAt: null });
    },
    async consume(tenantId, userId, purpose, challenge, attemptKey, now) {
      for (const stored of challenges.values()) {
        if (stored.tenantId !== tenantId || stored.userId !== userId || stored.purpose !== purpose || stored.challenge !== challenge
          || stored.attemptKey !== attemptKey || stored.usedAt !== null || stored.expiresAt.getTime() <= now.getTime()) continue;
        challenges.set(stored.id, { ...stored, usedAt: now });
        return true;
      }
      return false;
    },
    async beginSignIn(ceremony) {
      for (const [key, stored] of signIns) if (stored.expiresAt.getTime() < ceremony.createdAt.getTime()) signIns.delete(key);
      if (signIns.has(ceremony.handleHash)) throw new Error('duplicate key value violates unique constraint "passkey_sign_ins_pkey"');
      signIns.set(ceremony.handleHash, { ...ceremony, usedAt: null });
    },
    async consumeSignIn(handleHash, now) {
      const stored = signIns.get(handleHash);
      if (!stored || stored.usedAt !== null || stored.expiresAt.getTime() <= now.getTime()) return null;
      signIns.set(handleHash, { ...stored, usedAt: now });
      return stored.challenge;
    },
  };
}
