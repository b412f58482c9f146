import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';
import { PROOF_OK } from './0009-tenant-wall-proofs';

// The member list and the API key list, which the console reads on every visit to those pages,
// as one statement each through a function that checks the tenant's proof itself, as GET /invites
// does (0009). Through the walls they were a transaction each: BEGIN, the tenant setting, the
// SELECT, COMMIT. Each function answers exactly what the repository's list returns, in its order,
// for the tenant it is given and proven, and nothing when the proof is wrong.

export const LIST_MEMBERS = 'list_members';
export const LIST_API_KEYS = 'list_api_keys';

const role = sql.id(APP_ROLE);
const proofOk = sql`public.${sql.id(PROOF_OK)}`;

const signatures = () => [
  sql`${sql.id(LIST_MEMBERS)}(uuid, text)`,
  sql`${sql.id(LIST_API_KEYS)}(uuid, text)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ${sql.id(LIST_MEMBERS)}(p_tenant_id uuid, p_tenant_proof text)
      returns table (id uuid, tenant_id uuid, email text, password_hash text, role text, created_at timestamptz, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}('tenant:' || p_tenant_id::text, p_tenant_proof) then
        return;
      end if;
      return query
        select u.id, u.tenant_id, u.email, u.password_hash, u.role, u.created_at, u.auth_version
        from public.users u
        where u.tenant_id = p_tenant_id and u.removed_at is null
        order by u.created_at asc, u.id asc;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(LIST_API_KEYS)}(p_tenant_id uuid, p_tenant_proof text)
      returns setof public.api_keys
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}('tenant:' || p_tenant_id::text, p_tenant_proof) then
        return;
      end if;
      return query
        select k.* from public.api_keys k
        where k.tenant_id = p_tenant_id
        order by k.created_at desc, k.id desc;
    end $$`.execute(db);

  for (const signature of signatures()) {
    // Functions are executable by PUBLIC by default; these must not be.
    await sql`revoke all on function ${signature} from public`.execute(db);
    await sql`grant execute on function ${signature} to ${role}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const signature of signatures()) await sql`drop function ${signature}`.execute(db);
}
