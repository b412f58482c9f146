import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from '../kysely/migrations/0002-tenant-walls';
import { WALL_TENANT } from '../kysely/migrations/0009-tenant-wall-proofs';

export type TablePrivilege = 'select' | 'insert' | 'update' | 'delete';

export interface TenantWallOptions {
  /** The column naming each row's tenant; `tenant_id` unless given. */
  readonly tenantColumn?: string;
  /** What the service's role may do on the table; all four unless given (an append-only table: select, insert). */
  readonly privileges?: readonly TablePrivilege[];
}

const ALL_PRIVILEGES: readonly TablePrivilege[] = ['select', 'insert', 'update', 'delete'];
const PRIVILEGES = new Set<string>(ALL_PRIVILEGES);

// The tenant whose proof the transaction's setting carries, else null, which matches no row; read
// once per statement (migration 0009).
const currentTenant = sql`(select public.${sql.id(WALL_TENANT)}())`;

/**
 * Puts a module's table behind the tenant wall, in one call from its migration: the service's role
 * gets the privileges asked for, row-level security is enabled, and one policy lets a statement see
 * and write only the rows of the tenant in the transaction's setting, which the platform's
 * tenant-scoped unit of work sets with the tenant's proof. Identity's own tables are walled the same
 * way (0002-tenant-walls, 0009-tenant-wall-proofs):
 * ENABLE, not FORCE, so the owner that migrates stays outside; the policy names the service's role.
 */
export async function enableTenantWall(db: Kysely<unknown>, table: string, options: TenantWallOptions = {}): Promise<void> {
  const column = options.tenantColumn ?? 'tenant_id';
  const privileges = options.privileges ?? ALL_PRIVILEGES;
  if (privileges.length === 0 || privileges.some((privilege) => !PRIVILEGES.has(privilege))) {
    throw new Error(`enableTenantWall(${table}): privileges must be some of ${ALL_PRIVILEGES.join(', ')}`);
  }
  const role = sql.id(APP_ROLE);
  await sql`grant ${sql.raw(privileges.join(', '))} on ${sql.table(table)} to ${role}`.execute(db);
  await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
  await sql`
    create policy tenant_wall on ${sql.table(table)} to ${role}
      using (${sql.ref(column)} = ${currentTenant})
      with check (${sql.ref(column)} = ${currentTenant})`.execute(db);
}

/** For the migration's `down`: the policy and the grants go, row-level security is disabled. */
export async function disableTenantWall(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`drop policy if exists tenant_wall on ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(table)} disable row level security`.execute(db);
  await sql`revoke all on ${sql.table(table)} from ${sql.id(APP_ROLE)}`.execute(db);
}
