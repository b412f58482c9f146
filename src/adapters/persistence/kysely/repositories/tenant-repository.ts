import { type Selectable, sql } from 'kysely';
import { LOOKUP_TENANT_BY_SLUG } from '../migrations/0024-tenant-by-slug';
import type { TenantRepository } from '../../../../application/ports/repositories';
import { isUuid } from '../../../../domain/ids';
import type { Tenant } from '../../../../domain/tenant';
import type { MfaPolicy } from '../../../../domain/second-factor';
import type { TenantsTable } from '../schema';
import type { TenantScope } from '../driver/tenant-scope';

/** The tenants table is walled by id: a new tenant's row is written under its own id. */
export class KyselyTenantRepository implements TenantRepository {
  constructor(private readonly scope: TenantScope) {}

  /**
   * `on conflict (slug) do nothing`: a taken slug inserts no row and returns none, without an
   * error. A unique violation would abort a surrounding Postgres transaction (every later statement
   * refused until it rolls back), and signup retries its slug inside its transaction.
   */
  async create(tenant: Tenant): Promise<boolean> {
    const inserted = await this.scope.forTenant(tenant.id, (db) =>
      db
        .insertInto('tenants')
        .values({ id: tenant.id, name: tenant.name, slug: tenant.slug, created_at: tenant.createdAt })
        .onConflict((conflict) => conflict.column('slug').doNothing())
        .returning('id')
        .executeTakeFirst(),
    );
    return inserted !== undefined;
  }

  async findById(id: string): Promise<Tenant | null> {
    // A uuid column rejects other strings with an error; no such id can exist, so answer "none".
    if (!isUuid(id)) return null;
    const row = await this.scope.forTenant(id, (db) =>
      db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row ? toTenant(row) : null;
  }

  async findIdBySlug(slug: string): Promise<string | null> {
    const { rows } = await sql<{ id: string | null }>`select ${sql.id(LOOKUP_TENANT_BY_SLUG)}(${slug}) as id`.execute(this.scope.db);
    return rows[0]?.id ?? null;
  }

  /**
   * The tenant's row lock lasts until the surrounding transaction ends. FOR NO KEY UPDATE: it
   * serialises membership changes, but not the inserts whose foreign keys name the tenant (their
   * check takes FOR KEY SHARE), so work that holds a member (holdAuthState) and then adds a row
   * never waits on it while holding what a membership change needs next.
   */
  async lockMembership(tenantId: string): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.selectFrom('tenants').select('id').where('id', '=', tenantId).forNoKeyUpdate().executeTakeFirst(),
    );
    return row !== undefined;
  }

  async mfaPolicy(tenantId: string): Promise<MfaPolicy | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.selectFrom('tenants').select('mfa_policy').where('id', '=', tenantId).executeTakeFirst(),
    );
    return row ? (row.mfa_policy === 'required' ? 'required' : 'optional') : null;
  }

  async setMfaPolicy(tenantId: string, policy: MfaPolicy): Promise<boolean> {
    if (!isUuid(tenantId)) return false;
    const result = await this.scope.forTenant(tenantId, (db) =>
      db.updateTable('tenants').set({ mfa_policy: policy }).where('id', '=', tenantId).executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) > 0;
  }
}

function toTenant(row: Selectable<TenantsTable>): Tenant {
  return { id: row.id, name: row.name, slug: row.slug, createdAt: row.created_at };
}
