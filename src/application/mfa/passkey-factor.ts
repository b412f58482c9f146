import type { Repositories } from '../ports/repositories';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { WebAuthnCeremonies } from '../ports/webauthn';
import { ceremonyExpiry, credentialRefs } from '../passkeys/passkey-deps';
import type { FactorOwner, SecondFactorCheck } from './second-factor';

export interface PasskeyFactorDeps {
  readonly repos: Repositories;
  readonly webauthn: WebAuthnCeremonies;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/**
 * A passkey as the second factor of a sign-in attempt. `authenticationOptions` stores a challenge
 * for the member and the attempt (`challengeKey`, the mfa_token's id) and names the member's
 * credentials; `verify` accepts an assertion only by one of those credentials, answering that
 * challenge, which it consumes, and only while the credential's counter is the one it checked.
 */
export class PasskeyFactor implements SecondFactorCheck {
  readonly method = 'passkey' as const;

  constructor(private readonly deps: PasskeyFactorDeps) {}

  async enrolled(repos: Repositories, owner: FactorOwner): Promise<boolean> {
    return (await repos.passkeys.listOf(owner.tenantId, owner.userId)).length > 0;
  }

  async authenticationOptions(owner: FactorOwner, challengeKey: string): Promise<unknown> {
    const { repos, webauthn, ids, clock } = this.deps;
    const passkeys = await repos.passkeys.listOf(owner.tenantId, owner.userId);
    const challenge = webauthn.newChallenge();
    const now = clock.now();
    await repos.passkeyChallenges.create({
      id: ids.newId(), tenantId: owner.tenantId, userId: owner.userId, purpose: 'second_factor', attemptKey: challengeKey,
      challenge, createdAt: now, expiresAt: ceremonyExpiry(now),
    });
    return webauthn.authenticationOptions({ challenge, allow: credentialRefs(passkeys) });
  }

  async verify(tx: Repositories, owner: FactorOwner, proof: unknown, challengeKey: string): Promise<boolean> {
    const { webauthn, clock } = this.deps;
    const claims = webauthn.claims(proof);
    if (!claims) return false;
    const passkey = (await tx.passkeys.listOf(owner.tenantId, owner.userId)).find((p) => p.credentialId === claims.credentialId);
    if (!passkey) return false;
    const now = clock.now();
    // Spent before the signature is checked: a challenge gets one answer, right or wrong.
    if (!(await tx.passkeyChallenges.consume(owner.tenantId, owner.userId, 'second_factor', claims.challenge, challengeKey, now))) return false;
    const verified = await webauthn.verifyAssertion(proof, claims.challenge, passkey);
    if (!verified) return false;
    return tx.passkeys.recordUse(owner.tenantId, passkey.id, {
      fromSignCount: passkey.signCount, toSignCount: verified.newSignCount, backedUp: verified.backedUp, at: now,
    });
  }
}

/** Takes away every passkey of a member, inside the caller's unit of work; returns how many (an admin's removal of their factors). */
export async function removeAllPasskeys(tx: Repositories, owner: FactorOwner): Promise<number> {
  let count = 0;
  for (const passkey of await tx.passkeys.listOf(owner.tenantId, owner.userId)) {
    if (await tx.passkeys.remove(owner.tenantId, owner.userId, passkey.id)) count += 1;
  }
  return count;
}
