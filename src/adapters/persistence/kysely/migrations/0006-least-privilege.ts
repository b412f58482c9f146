import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Least privilege for the service's database login. The service may log in as a role that is only
// a member of APP_ROLE (docs/operations.md), never the owner: then a statement it is tricked into
// running gains nothing by RESET ROLE. For that, APP_ROLE holds exactly what the repositories use,
// and the one thing the service still read as the owner (which migrations are applied, for
// readiness and for the start-up check) becomes a narrow security-definer function.

/** The names Kysely recorded as applied: callable by the app role, which may not read the table. */
export const APPLIED_MIGRATIONS = 'applied_migrations';

const role = sql.id(APP_ROLE);

/**
 * Grants the first migrations gave that no repository uses: nothing deletes tenants, users or keys
 * (a removed member or revoked key is marked). UPDATE on tenants stays: member changes lock the
 * tenant's row with SELECT ... FOR UPDATE, which needs it.
 */
const UNUSED_GRANTS = [
  ['delete', 'tenants'],
  ['delete', 'users'],
  ['delete', 'api_keys'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.id(APPLIED_MIGRATIONS)}()
      returns setof text
      language sql stable security definer
      set search_path = public, pg_temp
    as $$ select name from public.kysely_migration $$`.execute(db);
  await sql`revoke all on function ${sql.id(APPLIED_MIGRATIONS)}() from public`.execute(db);
  await sql`grant execute on function ${sql.id(APPLIED_MIGRATIONS)}() to ${role}`.execute(db);

  for (const [privilege, table] of UNUSED_GRANTS) {
    await sql`revoke ${sql.raw(privilege)} on ${sql.table(table)} from ${role}`.execute(db);
  }
  // Before Postgres 15 every role could create tables in the public schema. Only its owner can
  // take that away; for anyone else this is a warning, not an error, and the start-up check
  // reports a serving login that can still create there.
  await sql`revoke create on schema public from public`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [privilege, table] of UNUSED_GRANTS) {
    await sql`grant ${sql.raw(privilege)} on ${sql.table(table)} to ${role}`.execute(db);
  }
  await sql`drop function ${sql.id(APPLIED_MIGRATIONS)}()`.execute(db);
}
