import type { Kysely } from 'kysely';
import type { ActiveApiKey, ApiKeyRepository } from '../../../application/ports/repositories';
import type { ApiKey } from '../../../domain/api-key';
import type { DB } from './schema';
import { storedRole } from './stored-roles';

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(key: ApiKey): Promise<void> {
    await this.db
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
      .execute();
  }

  /** The role comes from the owner's row at lookup time, so a changed role takes effect at once. */
  async findActiveByHash(keyPrefix: string, keyHash: string): Promise<ActiveApiKey | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.id as key_id', 'api_keys.tenant_id', 'api_keys.user_id', 'users.role'])
      .where('api_keys.key_prefix', '=', keyPrefix)
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked', '=', false)
      .executeTakeFirst();
    if (!row) return null;
    return { keyId: row.key_id, tenantId: row.tenant_id, userId: row.user_id, role: storedRole(row.role) };
  }
}
