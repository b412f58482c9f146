import { type Kysely, type RawBuilder, sql } from 'kysely';
import { APP_ROLE, LOOKUP_USER_BY_EMAIL, TENANT_SETTING } from './0002-tenant-walls';
import { TENANT_OF_RECORD } from './0005-change-triggers-and-record-tenant';
import { LOOKUP_MEMBER_AUTH_STATE, RECORD_API_KEY_USES } from './0008-credential-check-statements';

// Tenant walls the service's login cannot climb. Until now the walls compared each row's tenant
// with a setting any session may write (set_config), so whoever ran SQL as the service's login (an
// injection, or someone holding DATABASE_URL) could name any tenant and read or write its rows.
// Now the walls admit a tenant only with a proof: an HMAC-SHA256 of the tenant's id under a key
// the service holds (TENANT_WALL_KEY) and the database keeps in a table only its owner can read.
// The login can set any tenant it likes; without the key it cannot make the proof, and a tenant
// without its proof is no tenant at all.
//
// - WALL_SETTING carries '<tenant id>:<proof>', transaction-local, written as the tenant was. The
//   policies compare each row's tenant with WALL_TENANT(), a security-definer function that answers
//   the setting's tenant when its proof checks out, else null (which matches no row). It is called
//   as `(select ...)`, once per statement, not once per row.
// - PROOF_OK(subject, proof) is the one check, for the walls and for every definer function that
//   crosses them: the proof must be the HMAC of `subject` under one of the installed keys. Subjects
//   are 'tenant:<id>', 'email:<address>', 'check' (the start-up check); a function that needs a
//   new kind of proof takes a subject of its own. It is callable by the owner only, so only the
//   owner's definer functions reach the key.
// - The keys are installed by the owner after migrating (tenant-wall-setup.ts): a migration cannot know
//   the key, and installing it at each start, under a lock, is what lets a mismatch be found there.
//   Until a key is installed nothing passes the walls.
// - The definer functions that answered for a guessable argument now want a proof over it: a
//   member's e-mail (login), a tenant and user id (the credential check), a batch of key uses.
//   Those that take a 64-hex invite token or an API key's hash stay as they are: nobody can guess
//   their argument. `tenant_of_record`, which told whoever asked which tenant holds an id, is gone
//   (the audit trail no longer needs it).
// - GET /invites reads through LIST_PENDING_INVITES, which checks the proof itself: one statement,
//   with no tenant setting to send first.
//
// Every policy that still read the old setting, a product module's included, is rewritten to the
// new check; the migration fails if one is left, rather than leave a wall that any session opens.
// Tenant-less audit events (a failed login for an unknown e-mail) were open to anyone; they are
// written under NO_TENANT now, with its proof, like any tenant's.

/** The transaction-local setting the walls read: `<tenant id>:<proof>`. */
export const WALL_SETTING = 'portcullis.tenant';
/** Stands for "no tenant" where a tenant-less row is written (audit events); no tenant has this id. */
export const NO_TENANT = '00000000-0000-0000-0000-000000000000';

export const TENANT_WALL_KEYS = 'tenant_wall_keys';
export const PROOF_OK = 'portcullis_proof_ok';
export const WALL_TENANT = 'portcullis_wall_tenant';
export const WALL_KEY_STATE = 'portcullis_wall_key_state';
export const LIST_PENDING_INVITES = 'list_pending_invites';

const role = sql.id(APP_ROLE);
const wallTenant = sql`(select public.${sql.id(WALL_TENANT)}())`;
const oldTenant = sql`nullif(current_setting(${sql.lit(TENANT_SETTING)}, true), '')::uuid`;
// The same two expressions as text: as Postgres prints them back from a policy, and as SQL to write.
const OLD_TENANT_PRINTED = `(NULLIF(current_setting('${TENANT_SETTING}'::text, true), ''::text))::uuid`;
const OLD_TENANT_SQL = `nullif(current_setting('${TENANT_SETTING}', true), '')::uuid`;
const NEW_TENANT_PRINTED = `( SELECT ${WALL_TENANT}() AS ${WALL_TENANT})`;
const NEW_TENANT_SQL = `(select public.${WALL_TENANT}())`;

/** Identity's walled tables and the column naming each row's tenant. */
const WALLED_TABLES = [
  ['tenants', 'id'],
  ['users', 'tenant_id'],
  ['api_keys', 'tenant_id'],
  ['tenant_invites', 'tenant_id'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createKeysAndCheck(db);
  await rewriteWalls(db, wallTenant, sql`coalesce(tenant_id, ${sql.lit(NO_TENANT)}::uuid) = ${wallTenant}`);
  await rewriteModuleWalls(db, OLD_TENANT_PRINTED, NEW_TENANT_SQL);
  await assertNoWallReadsTheOldSetting(db);
  await replaceCrossings(db);
}

async function createKeysAndCheck(db: Kysely<unknown>): Promise<void> {
  // The HMAC's inner and outer pads (the key XOR 0x36.., XOR 0x5c..), so the check needs no XOR in
  // SQL. More than one row only while a key is being replaced (TENANT_WALL_KEY_PREVIOUS).
  await sql`
    create table ${sql.table(TENANT_WALL_KEYS)} (
      inner_pad bytea primary key check (length(inner_pad) = 64),
      outer_pad bytea not null check (length(outer_pad) = 64),
      added_at timestamptz not null default now()
    )`.execute(db);
  await sql`revoke all on ${sql.table(TENANT_WALL_KEYS)} from public`.execute(db);

  // Both sides of the comparison are hashed once more, so its time says nothing about the proof.
  // No SET search_path (which would cost every call a configuration save and restore): only the
  // owner's definer functions call it, each with its search_path pinned, and every name in it is
  // qualified.
  await sql`
    create function ${sql.id(PROOF_OK)}(p_subject text, p_proof text) returns boolean
      language plpgsql stable
    as $$
    begin
      return exists (
        select from public.${sql.table(TENANT_WALL_KEYS)} k
        where pg_catalog.sha256(pg_catalog.convert_to(p_proof, 'UTF8')) = pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.encode(
          pg_catalog.sha256(k.outer_pad || pg_catalog.sha256(k.inner_pad || pg_catalog.convert_to(p_subject, 'UTF8'))),
          'hex'), 'UTF8')));
    end $$`.execute(db);
  await sql`revoke all on function ${sql.id(PROOF_OK)}(text, text) from public`.execute(db);

  // The setting's shape is checked by its length and separator, not a regular expression (which
  // cost more than the proof itself). Only a proven value is cast, and the service proves tenant ids, which are uuids.
  await sql`
    create function ${sql.id(WALL_TENANT)}() returns uuid
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    declare
      wall text := current_setting(${sql.lit(WALL_SETTING)}, true);
    begin
      if wall is null or length(wall) <> 101 or substr(wall, 37, 1) <> ':' then
        return null;
      end if;
      if public.${sql.id(PROOF_OK)}('tenant:' || left(wall, 36), substr(wall, 38)) then
        return left(wall, 36)::uuid;
      end if;
      return null;
    end $$`.execute(db);

  // For the start-up check: whether the service's key is one of the database's.
  await sql`
    create function ${sql.id(WALL_KEY_STATE)}(p_proof text) returns text
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not exists (select from public.${sql.table(TENANT_WALL_KEYS)}) then
        return 'missing';
      end if;
      return case when public.${sql.id(PROOF_OK)}('check', p_proof) then 'installed' else 'mismatch' end;
    end $$`.execute(db);

  for (const fn of [sql`${sql.id(WALL_TENANT)}()`, sql`${sql.id(WALL_KEY_STATE)}(text)`]) await grantToAppRole(db, fn);
}

async function grantToAppRole(db: Kysely<unknown>, signature: RawBuilder<unknown>): Promise<void> {
  // Functions are executable by PUBLIC by default; these must not be.
  await sql`revoke all on function ${signature} from public`.execute(db);
  await sql`grant execute on function ${signature} to ${role}`.execute(db);
}

/** Identity's policies, with `tenant` the expression each row's tenant must equal. */
async function rewriteWalls(db: Kysely<unknown>, tenant: RawBuilder<unknown>, auditAppend: RawBuilder<unknown>): Promise<void> {
  for (const [table, column] of WALLED_TABLES) {
    await sql`
      alter policy tenant_wall on ${sql.table(table)}
        using (${sql.ref(column)} = ${tenant})
        with check (${sql.ref(column)} = ${tenant})`.execute(db);
  }
  await sql`alter policy tenant_wall_read on audit_events using (tenant_id = ${tenant})`.execute(db);
  await sql`alter policy tenant_wall_append on audit_events with check (${auditAppend})`.execute(db);
}

/**
 * Product modules' tables walled before this migration (enableTenantWall) compare with `from`.
 * Their policies are rewritten in place, `from` (as Postgres prints the expression back) replaced
 * by `to`; identity's own are rewritten above.
 */
async function rewriteModuleWalls(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`
    do $$
    declare
      p record;
    begin
      for p in
        select schemaname, tablename, policyname, qual, with_check from pg_catalog.pg_policies
        where schemaname = 'public' and tablename not in ('tenants', 'users', 'api_keys', 'tenant_invites', 'audit_events')
          and (position(${sql.lit(from)} in coalesce(qual, '')) > 0 or position(${sql.lit(from)} in coalesce(with_check, '')) > 0)
      loop
        execute format('alter policy %I on %I.%I', p.policyname, p.schemaname, p.tablename)
          || coalesce(' using (' || replace(p.qual, ${sql.lit(from)}, ${sql.lit(to)}) || ')', '')
          || coalesce(' with check (' || replace(p.with_check, ${sql.lit(from)}, ${sql.lit(to)}) || ')', '');
      end loop;
    end $$`.execute(db);
}

/** A policy written by hand that still reads the old setting would be a wall any session opens: the migration stops, naming it. */
async function assertNoWallReadsTheOldSetting(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    declare
      p record;
    begin
      for p in
        select tablename, policyname from pg_catalog.pg_policies
        where position(${sql.lit(TENANT_SETTING)} in coalesce(qual, '') || coalesce(with_check, '')) > 0
      loop
        raise exception 'policy % on % still reads %, which any session can set: compare with (select public.%()) instead',
          p.policyname, p.tablename, ${sql.lit(TENANT_SETTING)}, ${sql.lit(WALL_TENANT)};
      end loop;
    end $$`.execute(db);
}

async function replaceCrossings(db: Kysely<unknown>): Promise<void> {
  const proofOk = sql`public.${sql.id(PROOF_OK)}`;

  await sql`drop function ${sql.id(TENANT_OF_RECORD)}(text, uuid)`.execute(db);

  await sql`drop function ${sql.id(LOOKUP_USER_BY_EMAIL)}(text)`.execute(db);
  await sql`
    create function ${sql.id(LOOKUP_USER_BY_EMAIL)}(p_email text, p_email_proof text)
      returns table (id uuid, tenant_id uuid, email text, password_hash text, role text, created_at timestamptz, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}('email:' || p_email, p_email_proof) then
        return;
      end if;
      return query
        select u.id, u.tenant_id, u.email, u.password_hash, u.role, u.created_at, u.auth_version
        from public.users u
        where u.email = p_email and u.removed_at is null;
    end $$`.execute(db);

  await sql`drop function ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(uuid, uuid)`.execute(db);
  await sql`
    create function ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(p_tenant_id uuid, p_user_id uuid, p_tenant_proof text)
      returns table (role text, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}('tenant:' || p_tenant_id::text, p_tenant_proof) then
        return;
      end if;
      return query
        select u.role, u.auth_version
        from public.users u
        where u.id = p_user_id and u.tenant_id = p_tenant_id and u.removed_at is null;
    end $$`.execute(db);

  // Each tenant of the batch is proven once; a key whose tenant is not proven is skipped.
  await sql`drop function ${sql.id(RECORD_API_KEY_USES)}(uuid[], uuid[], timestamptz[])`.execute(db);
  await sql`
    create function ${sql.id(RECORD_API_KEY_USES)}(p_key_ids uuid[], p_tenant_ids uuid[], p_used_at timestamptz[], p_tenant_proofs text[])
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
          from unnest(p_key_ids, p_tenant_ids, p_used_at, p_tenant_proofs) as t(key_id, tenant_id, used_at, proof)
          where t.tenant_id in (
            select c.tenant_id
            from (select distinct x.tenant_id, x.proof from unnest(p_tenant_ids, p_tenant_proofs) as x(tenant_id, proof)) c
            where ${proofOk}('tenant:' || c.tenant_id::text, c.proof)
          )
          group by t.key_id, t.tenant_id
        ) u
        where k.id = u.key_id and k.tenant_id = u.tenant_id
          and (k.last_used_at is null or k.last_used_at < u.used_at);
      get diagnostics moved = row_count;
      return moved;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(LIST_PENDING_INVITES)}(p_tenant_id uuid, p_now timestamptz, p_tenant_proof text)
      returns table (id uuid, email text, role text, expires_at timestamptz, created_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}('tenant:' || p_tenant_id::text, p_tenant_proof) then
        return;
      end if;
      return query
        select i.id, i.email, i.role, i.expires_at, i.created_at
        from public.tenant_invites i
        where i.tenant_id = p_tenant_id and i.accepted_at is null and i.expires_at > p_now
        order by i.created_at desc, i.id desc;
    end $$`.execute(db);

  for (const signature of crossingSignatures()) await grantToAppRole(db, signature);
}

function crossingSignatures() {
  return [
    sql`${sql.id(LOOKUP_USER_BY_EMAIL)}(text, text)`,
    sql`${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(uuid, uuid, text)`,
    sql`${sql.id(RECORD_API_KEY_USES)}(uuid[], uuid[], timestamptz[], text[])`,
    sql`${sql.id(LIST_PENDING_INVITES)}(uuid, timestamptz, text)`,
  ];
}

/** Back to walls that read the plain setting, and to 0008's functions (and 0005's tenant_of_record). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await rewriteWalls(db, oldTenant, sql`tenant_id is null or tenant_id = ${oldTenant}`);
  await rewriteModuleWalls(db, NEW_TENANT_PRINTED, OLD_TENANT_SQL);
  for (const signature of crossingSignatures()) await sql`drop function ${signature}`.execute(db);
  await sql`drop function ${sql.id(WALL_KEY_STATE)}(text)`.execute(db);
  await sql`drop function ${sql.id(WALL_TENANT)}()`.execute(db);
  await sql`drop function ${sql.id(PROOF_OK)}(text, text)`.execute(db);
  await sql`drop table ${sql.table(TENANT_WALL_KEYS)}`.execute(db);

  await sql`
    create function ${sql.id(LOOKUP_USER_BY_EMAIL)}(p_email text)
      returns table (id uuid, tenant_id uuid, email text, password_hash text, role text, created_at timestamptz, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select u.id, u.tenant_id, u.email, u.password_hash, u.role, u.created_at, u.auth_version
        from public.users u
        where u.email = p_email and u.removed_at is null;
    end $$`.execute(db);
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
  await sql`
    create function ${sql.id(TENANT_OF_RECORD)}(p_kind text, p_id uuid) returns uuid
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return case p_kind
        when 'invite' then (select i.tenant_id from public.tenant_invites i where i.id = p_id)
        when 'api_key' then (select k.tenant_id from public.api_keys k where k.id = p_id)
        when 'member' then (select u.tenant_id from public.users u where u.id = p_id)
      end;
    end $$`.execute(db);
  for (const signature of [
    sql`${sql.id(LOOKUP_USER_BY_EMAIL)}(text)`,
    sql`${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(uuid, uuid)`,
    sql`${sql.id(RECORD_API_KEY_USES)}(uuid[], uuid[], timestamptz[])`,
    sql`${sql.id(TENANT_OF_RECORD)}(text, uuid)`,
  ]) await grantToAppRole(db, signature);
}
