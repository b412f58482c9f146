import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Two more narrow ways through the tenant walls, so that the credential check costs one statement
// when it is not answered from memory, and key usage costs one statement per batch:
//
// - LOOKUP_MEMBER_AUTH_STATE answers a member's role and auth version for an exact tenant and user,
//   as one statement with no transaction of its own (where a tenant-scoped read needs the tenant
//   setting first). It sees only the row of the tenant it is given, as the wall would.
// - RECORD_API_KEY_USES moves last_used_at forward for a batch of (key, tenant, time) triples that
//   may span tenants; each key is matched with its own tenant, and nothing else is written.
//
// Both run as the owner (SECURITY DEFINER), pin search_path, and are callable by the app role only.
//
// api_keys also gets a fill factor of 80: pages keep room for new row versions, so that moving
// last_used_at (no index covers it) can be a heap-only update, with none of the table's five
// indexes written. Rows written from now on get the room; older pages as they are rewritten.

const role = sql.id(APP_ROLE);

export const LOOKUP_MEMBER_AUTH_STATE = 'lookup_member_auth_state';
export const RECORD_API_KEY_USES = 'record_api_key_uses';

const signatures = () => [
  sql`${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(uuid, uuid)`,
  sql`${sql.id(RECORD_API_KEY_USES)}(uuid[], uuid[], timestamptz[])`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(p_tenant_id uuid, p_user_id uuid)
      returns table (role text, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select u.role, u.auth_version
        from public.users u
        where u.id = p_user_id and u.tenant_id = p_tenant_id and u.removed_at is null;
    end $$`.execute(db);

  // One UPDATE for the whole batch; a key named twice takes its latest time. Returns the rows moved.
  await sql`
    create function ${sql.id(RECORD_API_KEY_USES)}(p_key_ids uuid[], p_tenant_ids uuid[], p_used_at timestamptz[])
      returns integer
      language plpgsql volatile security definer
      set search_path = public, pg_temp
    as $$
    declare
      moved integer;
    begin
      update public.api_keys k
        set last_used_at = u.used_at
        from (
          select t.key_id, t.tenant_id, max(t.used_at) as used_at
          from unnest(p_key_ids, p_tenant_ids, p_used_at) as t(key_id, tenant_id, used_at)
          group by t.key_id, t.tenant_id
        ) u
        where k.id = u.key_id and k.tenant_id = u.tenant_id
          and (k.last_used_at is null or k.last_used_at < u.used_at);
      get diagnostics moved = row_count;
      return moved;
    end $$`.execute(db);

  await sql`alter table api_keys set (fillfactor = 80)`.execute(db);

  for (const signature of signatures()) {
    // Functions are executable by PUBLIC by default; these must not be.
    await sql`revoke all on function ${signature} from public`.execute(db);
    await sql`grant execute on function ${signature} to ${role}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_keys reset (fillfactor)`.execute(db);
  for (const signature of signatures()) await sql`drop function ${signature}`.execute(db);
}
