import type { Kysely, Selectable } from 'kysely';
import { ServiceKeyNameTaken, type ServiceKeyRepository } from '../../../../application/ports/service-keys';
import { ALL_TENANTS, namedTenants, type ServiceKey } from '../../../../domain/service-key';
import { SERVICE_KEYS_NAME_UNIQUE } from '../migrations/0007-service-keys';
import { isUniqueViolation } from '../driver/pg-errors';
import type { DB, ServiceKeysTable } from '../schema';

function toServiceKey(row: Selectable<ServiceKeysTable>): ServiceKey {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    keyHash: row.key_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    scope: row.all_tenants ? ALL_TENANTS : namedTenants(row.tenant_ids),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Service keys in SQL. The serving database (the app role) can only run findActiveByHash; the
 * other methods need the schema's owner, which is how the command line opens the database. A
 * revocation (any change to a key's hash or scope) is logged by the database itself (migration
 * 0010), so every instance closes the key's change streams and stops trusting it at once.
 */
export class KyselyServiceKeyRepository implements ServiceKeyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(key: ServiceKey): Promise<void> {
    try {
      await this.db.insertInto('service_keys').values({
        id: key.id,
        name: key.name,
        key_prefix: key.keyPrefix,
        key_hash: key.keyHash,
        created_at: key.createdAt,
        revoked_at: key.revokedAt,
        all_tenants: key.scope.kind === 'all-tenants',
        tenant_ids: key.scope.kind === 'all-tenants' ? [] : [...key.scope.tenantIds],
      }).execute();
    } catch (error) {
      if (isUniqueViolation(error, SERVICE_KEYS_NAME_UNIQUE)) throw new ServiceKeyNameTaken(key.name);
      throw error;
    }
  }

  async findActiveByHash(keyHash: string): Promise<ServiceKey | null> {
    const row = await this.db.selectFrom('service_keys').selectAll()
      .where('key_hash', '=', keyHash).where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? toServiceKey(row) : null;
  }

  async list(): Promise<ServiceKey[]> {
    const rows = await this.db.selectFrom('service_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toServiceKey);
  }

  async revoke(idOrName: string, at: Date): Promise<ServiceKey | null> {
    // A name that looks like a uuid is still a name: the id is tried first, only among uuids.
    const row = await this.db.updateTable('service_keys').set({ revoked_at: at })
      .where('revoked_at', 'is', null)
      .where((eb) => (UUID.test(idOrName) ? eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]) : eb('name', '=', idOrName)))
      .returningAll()
      .executeTakeFirst();
    return row ? toServiceKey(row) : null;
  }
}
