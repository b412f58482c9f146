import { type Selectable, sql } from 'kysely';
import type { RecoveryCodeRepository, TotpFactorRepository } from '../../../../application/ports/repositories';
import { isUuid } from '../../../../domain/ids';
import type { RecoveryCode, TotpFactor } from '../../../../domain/second-factor';
import type { TotpFactorsTable } from '../schema';
import type { TenantScope } from '../driver/tenant-scope';
import { TOTP_FACTORS_EXIST } from '../migrations/0021-sealed-secrets-exist';

function toFactor(row: Selectable<TotpFactorsTable>): TotpFactor {
  return {
    id: row.id, tenantId: row.tenant_id, userId: row.user_id, secret: row.secret, createdAt: row.created_at, confirmedAt: row.confirmed_at,
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  };
}

/** Authenticator apps behind the tenant wall (migration 0018). */
export class KyselyTotpFactorRepository implements TotpFactorRepository {
  constructor(private readonly scope: TenantScope) {}

  async anyExist(): Promise<boolean> {
    const { rows } = await sql<{ exist: boolean }>`select ${sql.id(TOTP_FACTORS_EXIST)}() as exist`.execute(this.scope.db);
    return rows[0]?.exist === true;
  }

  async findByMember(tenantId: string, userId: string): Promise<TotpFactor | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) => db.selectFrom('totp_factors').selectAll()
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst());
    return row ? toFactor(row) : null;
  }

  async create(factor: TotpFactor): Promise<void> {
    await this.scope.forTenant(factor.tenantId, (db) => db.insertInto('totp_factors').values({
      id: factor.id, tenant_id: factor.tenantId, user_id: factor.userId, secret: factor.secret, created_at: factor.createdAt,
      confirmed_at: factor.confirmedAt, last_used_step: factor.lastUsedStep,
    }).execute());
  }

  async deletePending(tenantId: string, userId: string): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.deleteFrom('totp_factors')
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('confirmed_at', 'is', null).returning('id').execute());
    return rows.length > 0;
  }

  async confirm(tenantId: string, userId: string, factorId: string, at: Date, step: number): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId) || !isUuid(factorId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('totp_factors').set({ confirmed_at: at, last_used_step: step })
      .where('id', '=', factorId).where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('confirmed_at', 'is', null)
      .returning('id').execute());
    return rows.length > 0;
  }

  /** One conditional UPDATE: of two sign-ins with one code, the second re-checks after the first commits and matches nothing (V6.5.1). */
  async useStep(tenantId: string, userId: string, factorId: string, step: number): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId) || !isUuid(factorId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('totp_factors').set({ last_used_step: step })
      .where('id', '=', factorId).where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('confirmed_at', 'is not', null)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .returning('id').execute());
    return rows.length > 0;
  }

  async deleteOf(tenantId: string, userId: string): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.deleteFrom('totp_factors')
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).returning('id').execute());
    return rows.length > 0;
  }
}

/** Recovery codes behind the tenant wall (migration 0018). */
export class KyselyRecoveryCodeRepository implements RecoveryCodeRepository {
  constructor(private readonly scope: TenantScope) {}

  async replaceAll(tenantId: string, userId: string, codes: readonly RecoveryCode[]): Promise<void> {
    await this.deleteAllOf(tenantId, userId);
    if (codes.length === 0) return;
    await this.scope.forTenant(tenantId, (db) => db.insertInto('recovery_codes').values(codes.map((code) => ({
      id: code.id, tenant_id: code.tenantId, user_id: code.userId, code_hash: code.codeHash, created_at: code.createdAt, used_at: code.usedAt,
    }))).execute());
  }

  /** One conditional UPDATE, as email tokens are consumed: two uses of one code, one wins. */
  async consume(tenantId: string, userId: string, codeHash: string, at: Date): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('recovery_codes').set({ used_at: at })
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('code_hash', '=', codeHash).where('used_at', 'is', null)
      .returning('id').execute());
    return rows.length > 0;
  }

  async countUnused(tenantId: string, userId: string): Promise<number> {
    if (!isUuid(tenantId) || !isUuid(userId)) return 0;
    const row = await this.scope.forTenant(tenantId, (db) => db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirst());
    return Number(row?.n ?? 0);
  }

  async deleteAllOf(tenantId: string, userId: string): Promise<number> {
    if (!isUuid(tenantId) || !isUuid(userId)) return 0;
    const rows = await this.scope.forTenant(tenantId, (db) => db.deleteFrom('recovery_codes')
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).returning('id').execute());
    return rows.length;
  }
}
