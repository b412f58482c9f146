import { type Kysely, sql } from 'kysely';
import { disableTenantWall, enableTenantWall } from '../../modules/tenant-wall-migration';
import { APP_ROLE, LOOKUP_ACTIVE_API_KEY, LOOKUP_USER_BY_EMAIL } from './0002-tenant-walls';
import { LOOKUP_MEMBER_AUTH_STATE } from './0008-credential-check-statements';
import { PROOF_OK } from './0009-tenant-wall-proofs';
import { LOOKUP_PASSKEY } from './0019-passkeys';

// Member suspension, and the tenants' SCIM tokens.
//
// - users.suspended_at: a suspended member keeps their row, keys, factors and address, but every
//   credential lookup skips them as it skips a removed member (the e-mail lookup that login uses, a
//   member's auth state, a key's owner, a passkey's owner). Lifting it (null again) lets the keys
//   work again; tokens and sessions from before do not come back (the auth version moved).
// - The users triggers of 0005 (sessions end, the change is noted for the unit of work) and 0010
//   (the change log) fire on suspended_at too, so a suspension written in SQL is in force on the
//   next request of every instance, exactly as one made through the service.
// - scim_tokens: one per tenant, walled; only the SHA-256 of the token is kept. A SCIM request names
//   no tenant, so the token is found across tenants through one definer function that answers an
//   exact hash.
//
// The lookups are replaced with `create or replace`: same arguments and result, so their grants stay.

export const LOOKUP_SCIM_TOKEN = 'lookup_scim_token';
/** The session end reasons and audit actor methods as this migration's checks spell them. */
const END_REASONS = ['logout', 'user', 'admin', 'password_change', 'password_reset', 'email_change', 'removal', 'suspension'];
const ACTOR_METHODS = ['jwt', 'api_key', 'none', 'scim'];

const role = sql.id(APP_ROLE);
const proofOk = sql`public.${sql.id(PROOF_OK)}`;
const lits = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));
const scimLookup = () => sql`${sql.id(LOOKUP_SCIM_TOKEN)}(text)`;

/** The users columns whose change is a credential change (0005, 0010), with or without suspended_at. */
function userChangeColumns(withSuspension: boolean) {
  const columns = ['role', 'auth_version', 'removed_at', 'password_hash', 'tenant_id', 'id', ...(withSuspension ? ['suspended_at'] : [])];
  return sql.join(columns.map((column) => sql`old.${sql.id(column)} is distinct from new.${sql.id(column)}`), sql` or `);
}

function endSessionColumns(withSuspension: boolean) {
  const columns = ['role', 'removed_at', 'tenant_id', ...(withSuspension ? ['suspended_at'] : [])];
  return sql.join(columns.map((column) => sql`old.${sql.id(column)} is distinct from new.${sql.id(column)}`), sql` or `);
}

async function replaceUserTriggers(db: Kysely<unknown>, withSuspension: boolean): Promise<void> {
  await sql`drop trigger users_end_sessions on users`.execute(db);
  await sql`
    create trigger users_end_sessions before update on users for each row
      when (${endSessionColumns(withSuspension)})
      execute function portcullis_users_end_sessions()`.execute(db);
  await sql`drop trigger users_credential_changed on users`.execute(db);
  await sql`
    create trigger users_credential_changed after update on users for each row
      when (${userChangeColumns(withSuspension)})
      execute function portcullis_user_changed()`.execute(db);
  await sql`drop trigger users_change_logged on users`.execute(db);
  await sql`
    create constraint trigger users_change_logged after update on users
      deferrable initially deferred for each row
      when (${userChangeColumns(withSuspension)})
      execute function portcullis_log_user_change()`.execute(db);
}

/** The four credential lookups, skipping suspended members too (`extra`), or not (down). */
async function replaceLookups(db: Kysely<unknown>, extra: ReturnType<typeof sql>): Promise<void> {
  await sql`
    create or replace function ${sql.id(LOOKUP_USER_BY_EMAIL)}(p_email text, p_email_proof text)
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
        where u.email = p_email and u.removed_at is null ${extra};
    end $$`.execute(db);
  await sql`
    create or replace function ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(p_tenant_id uuid, p_user_id uuid, p_tenant_proof text)
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
        where u.id = p_user_id and u.tenant_id = p_tenant_id and u.removed_at is null ${extra};
    end $$`.execute(db);
  await sql`
    create or replace function ${sql.id(LOOKUP_ACTIVE_API_KEY)}(p_key_prefix text, p_key_hash text)
      returns table (key_id uuid, tenant_id uuid, user_id uuid, expires_at timestamptz, role text, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select k.id, k.tenant_id, k.user_id, k.expires_at, u.role, u.auth_version
        from public.api_keys k
        join public.users u on u.id = k.user_id and u.tenant_id = k.tenant_id
        where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and not k.revoked and u.removed_at is null ${extra};
    end $$`.execute(db);
  await sql`
    create or replace function ${sql.id(LOOKUP_PASSKEY)}(text)
      returns table (id uuid, tenant_id uuid, user_id uuid, credential_id text, public_key text, sign_count bigint, transports text,
                     backed_up boolean, user_handle text, name text, created_at timestamptz, last_used_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select p.id, p.tenant_id, p.user_id, p.credential_id, p.public_key, p.sign_count, p.transports,
               p.backed_up, p.user_handle, p.name, p.created_at, p.last_used_at
        from public.passkeys p
        join public.users u on u.id = p.user_id and u.tenant_id = p.tenant_id
        where p.credential_id = $1 and u.removed_at is null ${extra};
    end $$`.execute(db);
}

async function replaceChecks(db: Kysely<unknown>, endReasons: readonly string[], actorMethods: readonly string[]): Promise<void> {
  await sql`alter table sessions drop constraint sessions_end_reason_check`.execute(db);
  await sql`alter table sessions add constraint sessions_end_reason_check check (end_reason in (${lits(endReasons)}))`.execute(db);
  await sql`alter table audit_events drop constraint audit_events_actor_method_check`.execute(db);
  await sql`alter table audit_events add constraint audit_events_actor_method_check check (actor_method in (${lits(actorMethods)}))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column suspended_at timestamptz`.execute(db);
  await replaceLookups(db, sql`and u.suspended_at is null`);
  await replaceUserTriggers(db, true);
  await replaceChecks(db, END_REASONS, ACTOR_METHODS);

  await sql`
    create table scim_tokens (
      tenant_id uuid primary key references tenants (id) on delete cascade,
      token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null,
      last_used_at timestamptz
    )`.execute(db);
  await enableTenantWall(db, 'scim_tokens', { privileges: ['select', 'insert', 'update', 'delete'] });
  await sql`
    create function ${scimLookup()}
      returns table (tenant_id uuid, token_hash text, created_at timestamptz, last_used_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select t.tenant_id, t.token_hash, t.created_at, t.last_used_at from public.scim_tokens t where t.token_hash = $1;
    end $$`.execute(db);
  // Functions are executable by PUBLIC by default; this one must not be.
  await sql`revoke all on function ${scimLookup()} from public`.execute(db);
  await sql`grant execute on function ${scimLookup()} to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${scimLookup()}`.execute(db);
  await disableTenantWall(db, 'scim_tokens');
  await sql`drop table scim_tokens`.execute(db);
  await sql`delete from audit_events where actor_method = 'scim'`.execute(db);
  await sql`update sessions set end_reason = 'admin' where end_reason = 'suspension'`.execute(db);
  await replaceChecks(db, END_REASONS.filter((reason) => reason !== 'suspension'), ACTOR_METHODS.filter((method) => method !== 'scim'));
  await replaceUserTriggers(db, false);
  await replaceLookups(db, sql``);
  await sql`alter table users drop column suspended_at`.execute(db);
}
