import { type Selectable, sql } from 'kysely';
import type { ScimTokenRepository } from '../../../../application/ports/scim-tokens';
import { isUuid } from '../../../../domain/ids';
import type { ScimToken } from '../../../../domain/scim';
import { LOOKUP_SCIM_TOKEN } from '../migrations/0023-member-suspension-and-scim-tokens';
import type { ScimTokensTable } from '../schema';
import type { TenantScope } from '../driver/tenant-scope';

function toToken(row: Selectable<ScimTokensTable>): ScimToken {
  return { tenantId: row.tenant_id, tokenHash: row.token_hash, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

/** SCIM tokens behind the tenant wall (migration 0023); found by hash across tenants through one definer function. */
export class KyselyScimTokenRepository implements ScimTokenRepository {
  constructor(private readonly scope: TenantScope) {}

  async replace(token: ScimToken): Promise<void> {
    await this.scope.forTenant(token.tenantId, (db) => db.insertInto('scim_tokens')
      .values({ tenant_id: token.tenantId, token_hash: token.tokenHash, created_at: token.createdAt, last_used_at: token.lastUsedAt })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ token_hash: token.tokenHash, created_at: token.createdAt, last_used_at: token.lastUsedAt }))
      .execute());
  }

  async find(tenantId: string): Promise<ScimToken | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.selectFrom('scim_tokens').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst());
    return row ? toToken(row) : null;
  }

  async remove(tenantId: string): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.deleteFrom('scim_tokens').where('tenant_id', '=', tenantId).returning('tenant_id').executeTakeFirst());
    return row !== undefined;
  }

  async findByHash(tokenHash: string): Promise<ScimToken | null> {
    const { rows } = await sql<Selectable<ScimTokensTable>>`select * from ${sql.id(LOOKUP_SCIM_TOKEN)}(${tokenHash})`.execute(this.scope.db);
    return rows[0] ? toToken(rows[0]) : null;
  }

  async markUsed(tenantId: string, tokenHash: string, at: Date): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const row = await this.scope.forTenant(tenantId, (db) => db.updateTable('scim_tokens')
      // greatest() skips a null: the first use sets it, a later one moves it, an earlier one leaves it.
      .set({ last_used_at: sql<Date>`greatest(last_used_at, ${at}::timestamptz)` })
      .where('tenant_id', '=', tenantId).where('token_hash', '=', tokenHash)
      .returning('tenant_id').executeTakeFirst());
    return row !== undefined;
  }
}
