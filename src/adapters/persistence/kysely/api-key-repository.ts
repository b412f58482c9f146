import { sql } from 'kysely';
import type { ActiveApiKey, ApiKeyRepository } from '../../../application/ports/repositories';
import type { ApiKey } from '../../../domain/api-key';
import { LOOKUP_ACTIVE_API_KEY } from './migrations/0002-tenant-walls';
import { storedRole } from './stored-roles';
import type { TenantScope } from './tenant-scope';

interface ActiveKeyRow {
  key_id: string;
  tenant_id: string;
  user_id: string;
  role: string;
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
        })
        .execute(),
    );
  }

  /**
   * Crosses the tenant walls through the one function that answers an exact prefix and hash of a
   * non-revoked key. It joins the owner's row at lookup time, so a changed role takes effect at once.
   */
  async findActiveByHash(keyPrefix: string, keyHash: string): Promise<ActiveApiKey | null> {
    const { rows } = await sql<ActiveKeyRow>`
      select * from ${sql.id(LOOKUP_ACTIVE_API_KEY)}(${keyPrefix}, ${keyHash})`.execute(this.scope.db);
    const row = rows[0];
    if (!row) return null;
    return { keyId: row.key_id, tenantId: row.tenant_id, userId: row.user_id, role: storedRole(row.role) };
  }
}
