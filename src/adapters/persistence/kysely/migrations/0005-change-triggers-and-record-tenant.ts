import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';

// Credential changes announced by the database itself. Every committed change to what
// authentication reads (a key's revocation, expiry, hash or owner; a member's role, removal,
// password or auth version; a deleted row) is announced on one NOTIFY channel by row triggers,
// whoever writes it: the service, psql, another service, a migration. Postgres delivers a NOTIFY
// only when its transaction commits and drops it on rollback, so a change and its announcement are
// one. The same triggers run on PGlite.
//
// Each announcement is also noted in a transaction-local setting, so the unit of work that made the
// change can forget it on its own instance right after the commit (kysely-unit-of-work.ts), without
// waiting for its own notification.
//
// A role change or a removal must end the member's bearer tokens, as it does through the API: a
// BEFORE trigger raises the auth version when the writer did not. The service's own UPDATE raises
// it in the same statement, so the trigger leaves it alone.
//
// Also one more narrow way across the tenant walls, for the audit trail: which tenant holds the
// invite, key or member with a given id. A request that names an id its tenant does not hold is
// recorded as a probe of another tenant only when another tenant does hold it.

/** The channel every instance LISTENs on; per database, so databases of one cluster never hear each other. */
export const CREDENTIAL_CHANGES_CHANNEL = 'portcullis_credential_changes';
/** The transaction-local setting that lists this transaction's announcements, space-separated. */
export const PENDING_CHANGES_SETTING = 'portcullis.credential_changes';
/** Sent by a TRUNCATE: every credential of the table may be gone. Not a change a listener can read, so it forgets everything. */
export const EVERYTHING_CHANGED = 'all';

const ANNOUNCE = 'portcullis_announce_credential_change';
const ANNOUNCE_TRUNCATE = 'portcullis_announce_truncate';
const END_SESSIONS = 'portcullis_users_end_sessions';
const USER_CHANGED = 'portcullis_user_changed';
const API_KEY_CHANGED = 'portcullis_api_key_changed';

/** The tenant holding the record of that kind ('invite', 'api_key', 'member') and id; null when none does. */
export const TENANT_OF_RECORD = 'tenant_of_record';

const channel = sql.lit(CREDENTIAL_CHANGES_CHANNEL);
const setting = sql.lit(PENDING_CHANGES_SETTING);

export async function up(db: Kysely<unknown>): Promise<void> {
  // search_path pinned: a trigger runs as whoever writes, and must not resolve a name to their objects.
  await sql`
    create function ${sql.id(ANNOUNCE)}(payload text) returns void
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      pending text := coalesce(current_setting(${setting}, true), '');
    begin
      perform pg_notify(${channel}, payload);
      if position(' ' || payload || ' ' in ' ' || pending) = 0 then
        perform set_config(${setting}, pending || payload || ' ', true);
      end if;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(END_SESSIONS)}() returns trigger
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      if new.auth_version <= old.auth_version then
        new.auth_version := old.auth_version + 1;
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger users_end_sessions before update on users for each row
      when (old.role is distinct from new.role
        or old.removed_at is distinct from new.removed_at
        or old.tenant_id is distinct from new.tenant_id)
      execute function ${sql.id(END_SESSIONS)}()`.execute(db);

  await sql`
    create function ${sql.id(USER_CHANGED)}() returns trigger
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(ANNOUNCE)}('user:' || old.id::text);
      if tg_op = 'UPDATE' and new.id <> old.id then
        perform public.${sql.id(ANNOUNCE)}('user:' || new.id::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_credential_changed after update on users for each row
      when (old.role is distinct from new.role
        or old.auth_version is distinct from new.auth_version
        or old.removed_at is distinct from new.removed_at
        or old.password_hash is distinct from new.password_hash
        or old.tenant_id is distinct from new.tenant_id
        or old.id is distinct from new.id)
      execute function ${sql.id(USER_CHANGED)}()`.execute(db);
  await sql`
    create trigger users_credential_deleted after delete on users for each row
      execute function ${sql.id(USER_CHANGED)}()`.execute(db);

  // last_used_at and name are bookkeeping: writing them changes no credential, so no announcement.
  await sql`
    create function ${sql.id(API_KEY_CHANGED)}() returns trigger
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(ANNOUNCE)}('api-key:' || old.id::text);
      if tg_op = 'UPDATE' and new.id <> old.id then
        perform public.${sql.id(ANNOUNCE)}('api-key:' || new.id::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger api_keys_credential_changed after update on api_keys for each row
      when (old.revoked is distinct from new.revoked
        or old.expires_at is distinct from new.expires_at
        or old.key_hash is distinct from new.key_hash
        or old.key_prefix is distinct from new.key_prefix
        or old.user_id is distinct from new.user_id
        or old.tenant_id is distinct from new.tenant_id
        or old.id is distinct from new.id)
      execute function ${sql.id(API_KEY_CHANGED)}()`.execute(db);
  await sql`
    create trigger api_keys_credential_deleted after delete on api_keys for each row
      execute function ${sql.id(API_KEY_CHANGED)}()`.execute(db);

  // TRUNCATE fires no row trigger; one statement trigger says "anything may have changed".
  await sql`
    create function ${sql.id(ANNOUNCE_TRUNCATE)}() returns trigger
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform pg_notify(${channel}, ${sql.lit(EVERYTHING_CHANGED)});
      return null;
    end $$`.execute(db);
  for (const table of ['users', 'api_keys']) {
    await sql`
      create trigger ${sql.id(`${table}_credentials_truncated`)} after truncate on ${sql.table(table)}
        for each statement execute function ${sql.id(ANNOUNCE_TRUNCATE)}()`.execute(db);
  }

  // As the lookups of 0002: owner's rights, an exact id only, pinned search_path, the app role only.
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
  await sql`revoke all on function ${sql.id(TENANT_OF_RECORD)}(text, uuid) from public`.execute(db);
  await sql`grant execute on function ${sql.id(TENANT_OF_RECORD)}(text, uuid) to ${sql.id(APP_ROLE)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${sql.id(TENANT_OF_RECORD)}(text, uuid)`.execute(db);
  for (const table of ['users', 'api_keys']) {
    await sql`drop trigger ${sql.id(`${table}_credentials_truncated`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop trigger api_keys_credential_deleted on api_keys`.execute(db);
  await sql`drop trigger api_keys_credential_changed on api_keys`.execute(db);
  await sql`drop trigger users_credential_deleted on users`.execute(db);
  await sql`drop trigger users_credential_changed on users`.execute(db);
  await sql`drop trigger users_end_sessions on users`.execute(db);
  for (const fn of [ANNOUNCE_TRUNCATE, API_KEY_CHANGED, USER_CHANGED, END_SESSIONS]) await sql`drop function ${sql.id(fn)}()`.execute(db);
  await sql`drop function ${sql.id(ANNOUNCE)}(text)`.execute(db);
}
