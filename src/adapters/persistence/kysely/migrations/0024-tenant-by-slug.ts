import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Single sign-on by organisation (GET /sso/start?tenant=<slug>) names a tenant by its slug before
// anyone is signed in, so the walled tenants table is asked across the walls: one definer function
// that answers the id of one exact slug, and nothing else of the row.

export const LOOKUP_TENANT_BY_SLUG = 'lookup_tenant_by_slug';

const signature = () => sql`${sql.id(LOOKUP_TENANT_BY_SLUG)}(text)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${signature()} returns uuid
      language sql stable security definer
      set search_path = public, pg_temp
    as $$ select t.id from public.tenants t where t.slug = $1 $$`.execute(db);
  // Functions are executable by PUBLIC by default; this one must not be.
  await sql`revoke all on function ${signature()} from public`.execute(db);
  await sql`grant execute on function ${signature()} to ${sql.id(APP_ROLE)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${signature()}`.execute(db);
}
