import {
  base32OfHex, formatRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_CHARS, RECOVERY_CODE_COUNT, type RecoveryCode,
} from '../../domain/second-factor';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { FactorOwner, SecondFactorCheck } from './second-factor';

export interface RecoveryCodesDeps {
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
}

/**
 * Recovery codes: ten at a time, shown once, each used once. Each carries 120 random bits, so a
 * SHA-256 of it is enough to store (ASVS V6.5.2 asks for a password hash only below 112 bits), and
 * a try costs one lookup by hash. A new set replaces the old one whole.
 */
export class RecoveryCodes implements SecondFactorCheck {
  readonly method = 'recovery_code' as const;

  constructor(private readonly deps: RecoveryCodesDeps) {}

  /** A new set for the member, replacing any older one; returns the codes as the member is shown them. */
  async issue(tx: Repositories, owner: FactorOwner): Promise<string[]> {
    const { ids, secrets, clock } = this.deps;
    const now = clock.now();
    const plain = Array.from({ length: RECOVERY_CODE_COUNT }, () => base32OfHex(secrets.randomHex(15)).slice(0, RECOVERY_CODE_CHARS));
    const rows: RecoveryCode[] = plain.map((code) => ({
      id: ids.newId(), tenantId: owner.tenantId, userId: owner.userId, codeHash: secrets.sha256Hex(code), createdAt: now, usedAt: null,
    }));
    await tx.recoveryCodes.replaceAll(owner.tenantId, owner.userId, rows);
    return plain.map(formatRecoveryCode);
  }

  async enrolled(repos: Repositories, owner: FactorOwner): Promise<boolean> {
    return (await repos.recoveryCodes.countUnused(owner.tenantId, owner.userId)) > 0;
  }

  async verify(tx: Repositories, owner: FactorOwner, proof: unknown): Promise<boolean> {
    const code = normalizeRecoveryCode(proof);
    if (code === null) return false;
    return tx.recoveryCodes.consume(owner.tenantId, owner.userId, this.deps.secrets.sha256Hex(code), this.deps.clock.now());
  }
}
