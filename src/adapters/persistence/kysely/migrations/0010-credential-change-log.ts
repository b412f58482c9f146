import { type Kysely, sql } from 'kysely';
import { APP_ROLE } from './0002-tenant-walls';
import { CREDENTIAL_CHANGES_CHANNEL } from './0005-change-triggers-and-record-tenant';
import { PROOF_OK } from './0009-tenant-wall-proofs';

// The credential change log: every committed credential change gets a position, in commit order,
// and a row saying what changed (kind, id) and in which tenant. Positions are the one notion of
// "how far" shared by instances, verifying services and their caches (docs/architecture.md,
// "Change positions").
//
// - Positions come from one counter row. Each change takes the next value with an UPDATE of that
//   row, whose lock is held until the transaction ends, so no two writers hold positions at once and
//   positions follow commit order. A rolled-back transaction rolls its positions back with it, so
//   positions have no holes: a missing one means rows were pruned.
// - The rows are written by deferred constraint triggers, at COMMIT, after the transaction's own
//   statements: the counter is locked only while the transaction commits, never while it waits
//   for other row locks (no deadlock with writers that touch the same rows in another order).
// - NOTIFY carries nothing: an empty payload says "the log has grown". Anyone may LISTEN on a
//   channel, so the channel must not name users, keys or tenants. Each instance reads the rows
//   through one SECURITY DEFINER function, granted to the app role only.
// - Migration 0005's triggers still note each change of the transaction in a transaction-local
//   setting, for the unit of work that made it; they no longer send the ids on the channel.
//
// Service keys gain an explicit scope: all tenants, or named ones. Keys made before this
// migration heard every tenant, and keep doing so (all_tenants true); from now on the operator
// says which whenever a key is made.

export const CHANGE_HEAD_TABLE = 'credential_change_head';
export const CHANGE_LOG_TABLE = 'credential_change_log';
/** (after bigint, page integer): the changes after a position, and the head. App role only. */
export const READ_CREDENTIAL_CHANGES = 'credential_changes_after';
/** (): drops rows older than the retention below. App role only; takes no argument to abuse. */
export const PRUNE_CREDENTIAL_CHANGES = 'prune_credential_changes';
/** The subjects of the proofs (migration 0009) that reading and pruning the log want. */
export const READ_CHANGES_SUBJECT = 'changes';
export const PRUNE_CHANGES_SUBJECT = 'changes:prune';
/** (): logs "everything may have changed" (after a restore that skipped triggers). Owner only. */
export const FORGET_EVERY_CREDENTIAL = 'forget_every_credential';
/** How long a logged change is kept: far longer than any instance takes to read it. */
export const CHANGE_LOG_RETENTION = '1 hour';

/** Kinds of change, as the log spells them. */
export const LOGGED_KINDS = ['user', 'api_key', 'service_key', 'everything'] as const;

const LOG_CHANGE = 'portcullis_log_credential_change';
const LOG_USER = 'portcullis_log_user_change';
const LOG_API_KEY = 'portcullis_log_api_key_change';
const LOG_SERVICE_KEY = 'portcullis_log_service_key_change';
const LOG_TRUNCATE = 'portcullis_log_truncate';
const ANNOUNCE = 'portcullis_announce_credential_change';
const ANNOUNCE_TRUNCATE = 'portcullis_announce_truncate';
const PENDING_CHANGES_SETTING = 'portcullis.credential_changes';

const role = sql.id(APP_ROLE);
const channel = sql.lit(CREDENTIAL_CHANGES_CHANNEL);
const head = sql.id(CHANGE_HEAD_TABLE);
const log = sql.id(CHANGE_LOG_TABLE);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ${head} (
      only_row boolean primary key default true check (only_row),
      position bigint not null check (position >= 0)
    )`.execute(db);
  await sql`insert into ${head} (only_row, position) values (true, 0)`.execute(db);
  await sql`
    create table ${log} (
      position bigint primary key,
      kind text not null check (kind in (${sql.join(LOGGED_KINDS.map((kind) => sql.lit(kind)))})),
      subject_id uuid,
      tenant_id uuid,
      logged_at timestamptz not null,
      check ((kind = 'everything') = (subject_id is null)),
      check ((kind in ('user', 'api_key')) = (tenant_id is not null))
    )`.execute(db);
  await sql`create index credential_change_log_logged_at on ${log} (logged_at)`.execute(db);
  // Neither table is granted to anyone: the owner's functions below are the only way in.

  // Runs as the owner (every caller below is a definer trigger function), search_path pinned.
  await sql`
    create function ${sql.id(LOG_CHANGE)}(p_kind text, p_subject uuid, p_tenant uuid) returns void
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      v_position bigint;
    begin
      update public.${head} set position = position + 1 returning position into v_position;
      insert into public.${log} (position, kind, subject_id, tenant_id, logged_at)
        values (v_position, p_kind, p_subject, p_tenant, clock_timestamp());
      perform pg_notify(${channel}, '');
    end $$`.execute(db);
  await sql`revoke all on function ${sql.id(LOG_CHANGE)}(text, uuid, uuid) from public`.execute(db);

  // Row changes: the same columns 0005 announces, logged at commit. A row that moves (new id or
  // tenant) is logged under both, so whoever followed either hears of it.
  for (const [fn, kind] of [[LOG_USER, 'user'], [LOG_API_KEY, 'api_key']] as const) {
    await sql`
      create function ${sql.id(fn)}() returns trigger
        language plpgsql security definer
        set search_path = pg_catalog, pg_temp
      as $$
      begin
        perform public.${sql.id(LOG_CHANGE)}(${sql.lit(kind)}, old.id, old.tenant_id);
        if tg_op = 'UPDATE' and (new.id <> old.id or new.tenant_id <> old.tenant_id) then
          perform public.${sql.id(LOG_CHANGE)}(${sql.lit(kind)}, new.id, new.tenant_id);
        end if;
        return null;
      end $$`.execute(db);
  }
  await sql`
    create function ${sql.id(LOG_SERVICE_KEY)}() returns trigger
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(LOG_CHANGE)}('service_key', old.id, null);
      if tg_op = 'UPDATE' and new.id <> old.id then
        perform public.${sql.id(LOG_CHANGE)}('service_key', new.id, null);
      end if;
      return null;
    end $$`.execute(db);

  await sql`
    alter table service_keys
      add column all_tenants boolean not null default true,
      add column tenant_ids uuid[] not null default '{}',
      add constraint service_keys_scope_check check (all_tenants = (cardinality(tenant_ids) = 0))`.execute(db);
  // Only the keys that existed get the old behaviour: a new key must say which tenants it hears.
  await sql`alter table service_keys alter column all_tenants drop default`.execute(db);

  await sql`
    create constraint trigger users_change_logged after update on users
      deferrable initially deferred for each row
      when (old.role is distinct from new.role
        or old.auth_version is distinct from new.auth_version
        or old.removed_at is distinct from new.removed_at
        or old.password_hash is distinct from new.password_hash
        or old.tenant_id is distinct from new.tenant_id
        or old.id is distinct from new.id)
      execute function ${sql.id(LOG_USER)}()`.execute(db);
  await sql`
    create constraint trigger users_delete_logged after delete on users
      deferrable initially deferred for each row execute function ${sql.id(LOG_USER)}()`.execute(db);
  await sql`
    create constraint trigger api_keys_change_logged after update on api_keys
      deferrable initially deferred for each row
      when (old.revoked is distinct from new.revoked
        or old.expires_at is distinct from new.expires_at
        or old.key_hash is distinct from new.key_hash
        or old.key_prefix is distinct from new.key_prefix
        or old.user_id is distinct from new.user_id
        or old.tenant_id is distinct from new.tenant_id
        or old.id is distinct from new.id)
      execute function ${sql.id(LOG_API_KEY)}()`.execute(db);
  await sql`
    create constraint trigger api_keys_delete_logged after delete on api_keys
      deferrable initially deferred for each row execute function ${sql.id(LOG_API_KEY)}()`.execute(db);
  await sql`
    create constraint trigger service_keys_change_logged after update on service_keys
      deferrable initially deferred for each row
      when (old.revoked_at is distinct from new.revoked_at
        or old.key_hash is distinct from new.key_hash
        or old.all_tenants is distinct from new.all_tenants
        or old.tenant_ids is distinct from new.tenant_ids
        or old.id is distinct from new.id)
      execute function ${sql.id(LOG_SERVICE_KEY)}()`.execute(db);
  await sql`
    create constraint trigger service_keys_delete_logged after delete on service_keys
      deferrable initially deferred for each row execute function ${sql.id(LOG_SERVICE_KEY)}()`.execute(db);

  // TRUNCATE fires no row trigger, and a statement trigger cannot be deferred: it logs at once.
  await sql`
    create function ${sql.id(LOG_TRUNCATE)}() returns trigger
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(LOG_CHANGE)}('everything', null, null);
      return null;
    end $$`.execute(db);
  for (const table of ['users', 'api_keys']) {
    await sql`drop trigger ${sql.id(`${table}_credentials_truncated`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function ${sql.id(ANNOUNCE_TRUNCATE)}()`.execute(db);
  for (const table of ['users', 'api_keys', 'service_keys']) {
    await sql`
      create trigger ${sql.id(`${table}_truncate_logged`)} after truncate on ${sql.table(table)}
        for each statement execute function ${sql.id(LOG_TRUNCATE)}()`.execute(db);
  }
  // Trigger functions run when their trigger fires whatever EXECUTE says; nobody needs to call them.
  for (const fn of [LOG_USER, LOG_API_KEY, LOG_SERVICE_KEY, LOG_TRUNCATE]) {
    await sql`revoke all on function ${sql.id(fn)}() from public`.execute(db);
  }

  // 0005's announcement, without the NOTIFY that named the id: the note for the unit of work stays.
  await sql`
    create or replace function ${sql.id(ANNOUNCE)}(payload text) returns void
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      pending text := coalesce(current_setting(${sql.lit(PENDING_CHANGES_SETTING)}, true), '');
    begin
      if position(' ' || payload || ' ' in ' ' || pending) = 0 then
        perform set_config(${sql.lit(PENDING_CHANGES_SETTING)}, pending || payload || ' ', true);
      end if;
    end $$`.execute(db);

  // One statement, one snapshot (a STABLE function sees the calling statement's): the head and the
  // rows agree. A row past the head cannot be seen, but the filter says so rather than relying on it.
  // The log names every tenant's members and keys, so reading it (and pruning it) wants the service's
  // proof (migration 0009): the runtime login alone learns nothing from it.
  await sql`
    create function ${sql.id(READ_CREDENTIAL_CHANGES)}(p_after bigint, p_limit integer, p_proof text)
      returns table (log_head bigint, log_position bigint, log_kind text, log_subject uuid, log_tenant uuid)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    declare
      v_head bigint;
    begin
      if not public.${sql.id(PROOF_OK)}(${sql.lit(READ_CHANGES_SUBJECT)}, p_proof) then
        return;
      end if;
      select h.position into v_head from public.${head} h;
      return query
        select v_head, c.position, c.kind, c.subject_id, c.tenant_id
        from public.${log} c
        where c.position > p_after and c.position <= v_head
        order by c.position
        limit greatest(p_limit, 0);
      if not found then
        return query select v_head, null::bigint, null::text, null::uuid, null::uuid;
      end if;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(PRUNE_CREDENTIAL_CHANGES)}(p_proof text) returns integer
      language plpgsql volatile security definer
      set search_path = public, pg_temp
    as $$
    declare
      dropped integer;
    begin
      if not public.${sql.id(PROOF_OK)}(${sql.lit(PRUNE_CHANGES_SUBJECT)}, p_proof) then
        return 0;
      end if;
      delete from public.${log} c where c.logged_at < clock_timestamp() - interval ${sql.lit(CHANGE_LOG_RETENTION)};
      get diagnostics dropped = row_count;
      return dropped;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(FORGET_EVERY_CREDENTIAL)}() returns void
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(LOG_CHANGE)}('everything', null, null);
    end $$`.execute(db);

  const signatures = [
    sql`${sql.id(READ_CREDENTIAL_CHANGES)}(bigint, integer, text)`,
    sql`${sql.id(PRUNE_CREDENTIAL_CHANGES)}(text)`,
    sql`${sql.id(FORGET_EVERY_CREDENTIAL)}()`,
  ];
  for (const signature of signatures) await sql`revoke all on function ${signature} from public`.execute(db);
  await sql`grant execute on function ${signatures[0]!} to ${role}`.execute(db);
  await sql`grant execute on function ${signatures[1]!} to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${sql.id(FORGET_EVERY_CREDENTIAL)}()`.execute(db);
  await sql`drop function ${sql.id(PRUNE_CREDENTIAL_CHANGES)}(text)`.execute(db);
  await sql`drop function ${sql.id(READ_CREDENTIAL_CHANGES)}(bigint, integer, text)`.execute(db);
  for (const table of ['users', 'api_keys', 'service_keys']) {
    await sql`drop trigger ${sql.id(`${table}_truncate_logged`)} on ${sql.table(table)}`.execute(db);
  }
  for (const [trigger, table] of [
    ['users_change_logged', 'users'], ['users_delete_logged', 'users'], ['api_keys_change_logged', 'api_keys'],
    ['api_keys_delete_logged', 'api_keys'], ['service_keys_change_logged', 'service_keys'], ['service_keys_delete_logged', 'service_keys'],
  ] as const) {
    await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
  }
  for (const fn of [LOG_TRUNCATE, LOG_SERVICE_KEY, LOG_API_KEY, LOG_USER]) await sql`drop function ${sql.id(fn)}()`.execute(db);
  await sql`drop function ${sql.id(LOG_CHANGE)}(text, uuid, uuid)`.execute(db);
  await sql`alter table service_keys drop constraint service_keys_scope_check, drop column tenant_ids, drop column all_tenants`.execute(db);
  await sql`drop table ${log}`.execute(db);
  await sql`drop table ${head}`.execute(db);
  // 0005's announcement and TRUNCATE triggers as they were.
  await sql`
    create or replace function ${sql.id(ANNOUNCE)}(payload text) returns void
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      pending text := coalesce(current_setting(${sql.lit(PENDING_CHANGES_SETTING)}, true), '');
    begin
      perform pg_notify(${channel}, payload);
      if position(' ' || payload || ' ' in ' ' || pending) = 0 then
        perform set_config(${sql.lit(PENDING_CHANGES_SETTING)}, pending || payload || ' ', true);
      end if;
    end $$`.execute(db);
  await sql`
    create function ${sql.id(ANNOUNCE_TRUNCATE)}() returns trigger
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform pg_notify(${channel}, 'all');
      return null;
    end $$`.execute(db);
  for (const table of ['users', 'api_keys']) {
    await sql`
      create trigger ${sql.id(`${table}_credentials_truncated`)} after truncate on ${sql.table(table)}
        for each statement execute function ${sql.id(ANNOUNCE_TRUNCATE)}()`.execute(db);
  }
}
