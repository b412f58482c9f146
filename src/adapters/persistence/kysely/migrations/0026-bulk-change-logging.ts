import { type Kysely, sql } from 'kysely';
import { CREDENTIAL_CHANGES_CHANNEL, EVERYTHING_CHANGED, PENDING_CHANGES_SETTING } from './0005-change-triggers-and-record-tenant';
import { CHANGE_HEAD_TABLE, CHANGE_LOG_TABLE } from './0010-credential-change-log';

// One statement that changes many credentials (members removed or keys revoked in bulk, from psql
// or by the service) costs each row the same, however many rows the statement changes.
//
// - The change log's counter row is written once per transaction. The first change a transaction
//   logs locks the row (SELECT FOR UPDATE: no new row version) and reads it; each change takes the
//   next position from a transaction-local setting; a deferred trigger on the log writes the row
//   once, when it fires for the transaction's last position. Positions keep following commit order
//   and having no holes, as in migration 0010: the lock is still held from the first change to the
//   end of the transaction. What this replaces was an UPDATE of the row per change, and every
//   UPDATE of one row inside one transaction walks past all the versions that transaction made.
// - The note a unit of work reads (migration 0005) holds at most about a thousand changes. Past
//   that it says `all`: the unit of work that made them has this instance forget everything it
//   remembers. Noting each change copied and searched the whole note so far.
//
// scripts/bench/bulk-changes.ts measures both: time per changed row by statement size.

/** Transaction-local: the last position this transaction took (unset before its first change). */
const TAKEN_POSITION_SETTING = 'portcullis.change_position_taken';
/** The note's length past which it says `all` instead: about a thousand entries of 42 to 45 characters. */
export const NOTE_LIMIT_CHARS = 45_000;

const LOG_CHANGE = 'portcullis_log_credential_change';
const ANNOUNCE = 'portcullis_announce_credential_change';
const WRITE_HEAD = 'portcullis_write_change_head';
const HEAD_TRIGGER = 'credential_change_log_head_written';

const head = sql.id(CHANGE_HEAD_TABLE);
const log = sql.id(CHANGE_LOG_TABLE);
const channel = sql.lit(CREDENTIAL_CHANGES_CHANNEL);
const taken = sql.lit(TAKEN_POSITION_SETTING);
const note = sql.lit(PENDING_CHANGES_SETTING);
const everything = sql.lit(`${EVERYTHING_CHANGED} `);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function ${sql.id(LOG_CHANGE)}(p_kind text, p_subject uuid, p_tenant uuid) returns void
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      v_taken text := current_setting(${taken}, true);
      v_position bigint;
    begin
      if v_taken is null or v_taken = '' then
        select h.position into v_position from public.${head} h for update;
      else
        v_position := v_taken::bigint;
      end if;
      v_position := v_position + 1;
      perform set_config(${taken}, v_position::text, true);
      insert into public.${log} (position, kind, subject_id, tenant_id, logged_at)
        values (v_position, p_kind, p_subject, p_tenant, clock_timestamp());
      perform pg_notify(${channel}, '');
    end $$`.execute(db);

  // Fires at commit for each logged row, after the change triggers that logged them: only the row
  // of the last position taken writes the head. A TRUNCATE logs at once, mid-transaction; its row's
  // trigger still fires at commit, in order, and writes the head if nothing was logged after it.
  await sql`
    create function ${sql.id(WRITE_HEAD)}() returns trigger
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      if new.position = current_setting(${taken}, true)::bigint then
        update public.${head} set position = new.position;
      end if;
      return null;
    end $$`.execute(db);
  await sql`revoke all on function ${sql.id(WRITE_HEAD)}() from public`.execute(db);
  await sql`
    create constraint trigger ${sql.id(HEAD_TRIGGER)} after insert on ${log}
      deferrable initially deferred for each row execute function ${sql.id(WRITE_HEAD)}()`.execute(db);

  await sql`
    create or replace function ${sql.id(ANNOUNCE)}(payload text) returns void
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      pending text := coalesce(current_setting(${note}, true), '');
    begin
      if pending = ${everything} or position(' ' || payload || ' ' in ' ' || pending) > 0 then
        return;
      end if;
      if length(pending) >= ${sql.lit(NOTE_LIMIT_CHARS)} then
        perform set_config(${note}, ${everything}, true);
      else
        perform set_config(${note}, pending || payload || ' ', true);
      end if;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function ${sql.id(ANNOUNCE)}(payload text) returns void
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      pending text := coalesce(current_setting(${note}, true), '');
    begin
      if position(' ' || payload || ' ' in ' ' || pending) = 0 then
        perform set_config(${note}, pending || payload || ' ', true);
      end if;
    end $$`.execute(db);
  await sql`drop trigger ${sql.id(HEAD_TRIGGER)} on ${log}`.execute(db);
  await sql`drop function ${sql.id(WRITE_HEAD)}()`.execute(db);
  await sql`
    create or replace function ${sql.id(LOG_CHANGE)}(p_kind text, p_subject uuid, p_tenant uuid) returns void
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
}
