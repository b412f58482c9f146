import { type Selectable, sql } from 'kysely';
import type { ActiveApiKey, ApiKeyRepository, ApiKeyUse, KeyRevocation } from '../../../../application/ports/repositories';
import type { ApiKey } from '../../../../domain/api-key';
import { isUuid } from '../../../../domain/ids';
import { LOOKUP_ACTIVE_API_KEY } from '../migrations/0002-tenant-walls';
import { RECORD_API_KEY_USES } from '../migrations/0008-credential-check-statements';
import { LIST_API_KEYS } from '../migrations/0012-tenant-list-reads';
import type { ApiKeysTable } from '../schema';
import { storedRole } from './stored-roles';
import type { TenantScope } from '../driver/tenant-scope';

interface ActiveKeyRow {
  key_id: string;
  tenant_id: string;
  user_id: string;
  expires_at: Date | null;
  role: string;
  auth_version: number;
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(key: ApiKey): Promise<void> {
    await this.scope.forTenant(key.tenantId, (db) =>
      db
        .insertInto('api_keys')
        .values({
          id: key.id,
          tenant_id: key.tenantId,
          user_id: key.userId,
          key_prefix: key.keyPrefix,
          key_hash: key.keyHash,
          revoked: key.revoked,
          created_at: key.createdAt,
          name: key.name,
          expires_at: key.expiresAt,
          last_used_at: key.lastUsedAt,
        })
        .execute(),
    );
  }

  /**
   * Crosses the tenant walls through the one function that answers an exact prefix and hash of a
   * non-revoked key of a member. It joins the owner's row at lookup time, so the role is current.
   */
  async findActiveByHash(keyPrefix: string, keyHash: string): Promise<ActiveApiKey | null> {
    const { rows } = await sql<ActiveKeyRow>`
      select * from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${keyPrefix}, ${keyHash})`.execute(this.scope.db);
    const row = rows[0];
    if (!row) return null;
    return {
      keyId: row.key_id,
      tenantId: row.tenant_id,
      userId: row.user_id,
      expiresAt: row.expires_at,
      owner: { tenantId: row.tenant_id, userId: row.user_id, role: storedRole(row.role), authVersion: row.auth_version },
    };
  }

  async findById(tenantId: string, keyId: string): Promise<ApiKey | null> {
    if (!isUuid(tenantId) || !isUuid(keyId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('tenant_id', '=', tenantId).executeTakeFirst(),
    );
    return row ? toApiKey(row) : null;
  }

  /** One statement, through the function that checks the tenant's proof itself (migration 0012). */
  async listForTenant(tenantId: string): Promise<ApiKey[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await sql<Selectable<ApiKeysTable>>`
      select * from ${sql.id(LIST_API_KEYS)}(${tenantId}::uuid, ${this.scope.walls.tenantProof(tenantId)})`.execute(this.scope.db);
    return rows.map(toApiKey);
  }

  /**
   * Only a key that is not revoked yet is written, so a second revocation (or the loser of two at
   * once, which waits for the winner's row lock and then finds it revoked) changes nothing and is
   * announced by nobody; a second statement tells it apart from a key the tenant does not have.
   */
  async revoke(tenantId: string, keyId: string): Promise<KeyRevocation> {
    if (!isUuid(tenantId) || !isUuid(keyId)) return 'not_found';
    return this.scope.forTenant(tenantId, async (db) => {
      const revoked = await db.updateTable('api_keys').set({ revoked: true })
        .where('id', '=', keyId).where('tenant_id', '=', tenantId).where('revoked', '=', false)
        .returning('id').executeTakeFirst();
      if (revoked) return 'revoked';
      const existing = await db.selectFrom('api_keys').select('id')
        .where('id', '=', keyId).where('tenant_id', '=', tenantId).executeTakeFirst();
      return existing ? 'already_revoked' : 'not_found';
    });
  }

  async revokeAllOf(tenantId: string, userId: string): Promise<number> {
    if (!isUuid(tenantId) || !isUuid(userId)) return 0;
    const rows = await this.scope.forTenant(tenantId, (db) =>
      db.updateTable('api_keys').set({ revoked: true })
        .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('revoked', '=', false)
        .returning('id').execute(),
    );
    return rows.length;
  }

  /**
   * One statement for the whole batch, through the function that moves only last_used_at forward
   * and matches each key with its own tenant, proven (the batch may span tenants, which one tenant
   * setting could not).
   */
  async markUsed(uses: readonly ApiKeyUse[]): Promise<void> {
    const valid = uses.filter((use) => isUuid(use.tenantId) && isUuid(use.keyId));
    if (valid.length === 0) return;
    const keyIds = valid.map((use) => use.keyId);
    const tenantIds = valid.map((use) => use.tenantId);
    const usedAt = valid.map((use) => use.at.toISOString());
    const proofs = valid.map((use) => this.scope.walls.tenantProof(use.tenantId));
    await sql`
      select ${sql.id(RECORD_API_KEY_USES)}(${keyIds}::uuid[], ${tenantIds}::uuid[], ${usedAt}::timestamptz[], ${proofs}::text[])`
      .execute(this.scope.db);
  }
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    keyPrefix: row.key_prefix,
    keyHash: row.key_hash,
    revoked: row.revoked,
    createdAt: row.created_at,
    name: row.name,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}
