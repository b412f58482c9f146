import type { RecoveryCodeRepository, TotpFactorRepository } from '../../../application/ports/repositories';
import type { RecoveryCode, TotpFactor } from '../../../domain/second-factor';

const ofMember = (tenantId: string, userId: string) => (row: { tenantId: string; userId: string }) =>
  row.tenantId === tenantId && row.userId === userId;

/** Authenticator apps over one state's map, one per member as the SQL table's unique index keeps them. */
export function memoryTotpFactors(factors: Map<string, TotpFactor>): TotpFactorRepository {
  const find = (tenantId: string, userId: string) => [...factors.values()].find(ofMember(tenantId, userId)) ?? null;
  return {
    async anyExist() {
      return factors.size > 0;
    },
    async findByMember(tenantId, userId) {
      return find(tenantId, userId);
    },
    async create(factor) {
      if (factors.has(factor.id) || find(factor.tenantId, factor.userId)) {
        throw new Error('duplicate key value violates unique constraint "totp_factors_member_key"');
      }
      factors.set(factor.id, factor);
    },
    async deletePending(tenantId, userId) {
      const factor = find(tenantId, userId);
      if (!factor || factor.confirmedAt !== null) return false;
      return factors.delete(factor.id);
    },
    async confirm(tenantId, userId, factorId, at, step) {
      const factor = find(tenantId, userId);
      if (!factor || factor.id !== factorId || factor.confirmedAt !== null) return false;
      factors.set(factor.id, { ...factor, confirmedAt: at, lastUsedStep: step });
      return true;
    },
    async useStep(tenantId, userId, factorId, step) {
      const factor = find(tenantId, userId);
      if (!factor || factor.id !== factorId || factor.confirmedAt === null) return false;
      if (factor.lastUsedStep !== null && factor.lastUsedStep >= step) return false;
      factors.set(factor.id, { ...factor, lastUsedStep: step });
      return true;
    },
    async deleteOf(tenantId, userId) {
      const factor = find(tenantId, userId);
      return factor ? factors.delete(factor.id) : false;
    },
  };
}

/** Recovery codes over one state's map. */
export function memoryRecoveryCodes(codes: Map<string, RecoveryCode>): RecoveryCodeRepository {
  const deleteAll = (tenantId: string, userId: string): number => {
    let count = 0;
    for (const code of [...codes.values()].filter(ofMember(tenantId, userId))) count += codes.delete(code.id) ? 1 : 0;
    return count;
  };
  return {
    async replaceAll(tenantId, userId, fresh) {
      deleteAll(tenantId, userId);
      for (const code of fresh) {
        if (codes.has(code.id) || [...codes.values()].some((c) => c.codeHash === code.codeHash)) {
          throw new Error('duplicate key value violates unique constraint "recovery_codes_code_hash_key"');
        }
        codes.set(code.id, code);
      }
    },
    async consume(tenantId, userId, codeHash, at) {
      const code = [...codes.values()].find((c) => ofMember(tenantId, userId)(c) && c.codeHash === codeHash && c.usedAt === null);
      if (!code) return false;
      codes.set(code.id, { ...code, usedAt: at });
      return true;
    },
    async countUnused(tenantId, userId) {
      return [...codes.values()].filter((c) => ofMember(tenantId, userId)(c) && c.usedAt === null).length;
    },
    async deleteAllOf(tenantId, userId) {
      return deleteAll(tenantId, userId);
    },
  };
}
