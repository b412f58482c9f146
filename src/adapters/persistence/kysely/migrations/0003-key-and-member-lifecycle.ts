import { type Kysely, sql } from 'kysely';
import { APP_ROLE, LOOKUP_ACTIVE_API_KEY, LOOKUP_USER_BY_EMAIL } from './0002-tenant-walls';

// Keys and members over their whole life: named, expiring, revocable keys with a last use; members
// whose role changes and who can be removed. Every change that must end a member's sessions raises
// users.auth_version, which bearer tokens carry. Removal marks the row rather than deleting it (keys
// and invites keep naming it), and frees the e-mail address for a new registration.
//
// The new columns live in tables the tenant walls already cover (table-wide grants, row policies),
// so nothing new crosses tenants except through the two lookups, which are replaced here to skip
// removed members and to return what authentication now needs (expiry, auth version).

const role = sql.id(APP_ROLE);
const USERS_EMAIL_UNIQUE = 'users_email_key';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      add column auth_version integer not null default 0 check (auth_version >= 0),
      add column removed_at timestamptz`.execute(db);
  // Same name as the constraint it replaces, so the adapter's unique-violation mapping still applies.
  await sql`alter table users drop constraint ${sql.id(USERS_EMAIL_UNIQUE)}`.execute(db);
  await sql`create unique index ${sql.id(USERS_EMAIL_UNIQUE)} on users (email) where removed_at is null`.execute(db);

  await sql`
    alter table api_keys
      add column name text,
      add column expires_at timestamptz,
      add column last_used_at timestamptz`.execute(db);
  // The list endpoint (one tenant's keys, newest first) and revoking a removed member's keys.
  await sql`create index api_keys_tenant_created_idx on api_keys (tenant_id, created_at desc)`.execute(db);
  await sql`create index api_keys_user_id_idx on api_keys (user_id)`.execute(db);

  // A function's result type cannot be changed in place: dropped and made again, grants included.
  await sql`drop function ${sql.id(LOOKUP_USER_BY_EMAIL)}(text)`.execute(db);
  await sql`drop function ${sql.id(LOOKUP_ACTIVE_API_KEY)}(text, text)`.execute(db);
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
    create function ${sql.id(LOOKUP_ACTIVE_API_KEY)}(p_key_prefix text, p_key_hash text)
      returns table (key_id uuid, tenant_id uuid, user_id uuid, expires_at timestamptz, role text, auth_version integer)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select k.id, k.tenant_id, k.user_id, k.expires_at, u.role, u.auth_version
        from public.api_keys k
        join public.users u on u.id = k.user_id and u.tenant_id = k.tenant_id
        where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and not k.revoked and u.removed_at is null;
    end $$`.execute(db);
  await restrictLookups(db);
}

async function restrictLookups(db: Kysely<unknown>): Promise<void> {
  for (const signature of [sql`${sql.id(LOOKUP_USER_BY_EMAIL)}(text)`, sql`${sql.id(LOOKUP_ACTIVE_API_KEY)}(text, text)`]) {
    // Functions are executable by PUBLIC by default; these must not be.
    await sql`revoke all on function ${signature} from public`.execute(db);
    await sql`grant execute on function ${signature} to ${role}`.execute(db);
  }
}

/** Back to 0002's schema. Removed members' rows are deleted first, or the old unique e-mail constraint could not hold. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${sql.id(LOOKUP_USER_BY_EMAIL)}(text)`.execute(db);
  await sql`drop function ${sql.id(LOOKUP_ACTIVE_API_KEY)}(text, text)`.execute(db);
  await sql`
    create function ${sql.id(LOOKUP_USER_BY_EMAIL)}(p_email text)
      returns table (id uuid, tenant_id uuid, email text, password_hash text, role text, created_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select u.id, u.tenant_id, u.email, u.password_hash, u.role, u.created_at from public.users u where u.email = p_email;
    end $$`.execute(db);
  await sql`
    create function ${sql.id(LOOKUP_ACTIVE_API_KEY)}(p_key_prefix text, p_key_hash text)
      returns table (key_id uuid, tenant_id uuid, user_id uuid, role text)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select k.id, k.tenant_id, k.user_id, u.role
        from public.api_keys k join public.users u on u.id = k.user_id
        where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and not k.revoked;
    end $$`.execute(db);
  await restrictLookups(db);

  await sql`drop index api_keys_user_id_idx`.execute(db);
  await sql`drop index api_keys_tenant_created_idx`.execute(db);
  await sql`alter table api_keys drop column last_used_at, drop column expires_at, drop column name`.execute(db);
  await sql`delete from tenant_invites where invited_by in (select id from users where removed_at is not null)`.execute(db);
  await sql`delete from api_keys where user_id in (select id from users where removed_at is not null)`.execute(db);
  await sql`delete from users where removed_at is not null`.execute(db);
  await sql`drop index ${sql.id(USERS_EMAIL_UNIQUE)}`.execute(db);
  await sql`alter table users add constraint ${sql.id(USERS_EMAIL_UNIQUE)} unique (email)`.execute(db);
  await sql`alter table users drop column removed_at, drop column auth_version`.execute(db);
}
