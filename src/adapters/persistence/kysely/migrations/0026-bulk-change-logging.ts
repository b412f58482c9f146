import { type Kysely, sql } from 'kysely';
import { CREDENTIAL_CHANGES_CHANNEL, EVERYTHING_CHANGED, PENDING_CHANGES_SETTING } from './0005-change-triggers-and-record-tenant';
import { CHANGE_HEAD_TABLE, CHANGE_LOG_TABLE } from './0010-credential-change-log';

// One statement that changes many credentials (members removed or keys revoked in bulk, from psql
// or by the service) costs each row the same, however many rows the statement changes.
//
// - The change log's counter row is written once per transaction. Each change locks the row
//   (SELECT FOR UPDATE: no new row version) and takes the position after the head and after the
//   transaction's own rows; a deferred trigger on the log writes the row once, when it fires for the
//   transaction's highest row. Positions keep following commit order and having no holes, as in
//   migration 0010: the lock is held from the first change to the end of the transaction. Nothing
//   is kept in a setting a session could set for itself. What this replaces was an UPDATE of the
//   row per change, and every UPDATE of one row inside one transaction walks past all the versions
//   that transaction made.
// - The note a unit of work reads (migration 0005) holds at most about a thousand changes. Past
//   that it says `all`: the unit of work that made them has this instance forget everything it
//   remembers. Noting each change copied and searched the whole note so far.
//
// scripts/bench/bulk-changes.ts measures both: time per changed row by statement size.

/** The note's length past which it says `all` instead: about a thousand entries of 42 to 45 characters. */
const NOTE_LIMIT_CHARS = 45_000;

const LOG_CHANGE = 'portcullis_log_credential_change';
const ANNOUNCE = 'portcullis_announce_credential_change';
const WRITE_HEAD = 'portcullis_write_change_head';
const HEAD_TRIGGER = 'credential_change_log_head_written';

const head = sql.id(CHANGE_HEAD_TABLE);
const log = sql.id(CHANGE_LOG_TABLE);
const channel = sql.lit(CREDENTIAL_CHANGES_CHANNEL);
const note = sql.lit(PENDING_CHANGES_SETTING);
const everything = sql.lit(`${EVERYTHING_CHANGED} `);

export async function up(db: Kysely<unknown>): Promise<void> {
  // The head row locked (a second lock by the same transaction costs nothing), then the next
  // position after the head and after every row this transaction has logged: rows past the
  // committed head can only be the caller's own, since nobody else holds positions meanwhile, and
  // the log's primary key finds the highest at once. Pruning may have emptied the log: hence the head.
  await sql`
    create or replace function ${sql.id(LOG_CHANGE)}(p_kind text, p_subject uuid, p_tenant uuid) returns void
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    declare
      v_head bigint;
      v_position bigint;
    begin
      select h.position into v_head from public.${head} h for update;
      select greatest(v_head, coalesce(max(c.position), 0)) + 1 into v_position from public.${log} c;
      insert into public.${log} (position, kind, subject_id, tenant_id, logged_at)
        values (v_position, p_kind, p_subject, p_tenant, clock_timestamp());
      perform pg_notify(${channel}, '');
    end $$`.execute(db);

  // Fires at commit for each logged row, after the change triggers that logged them: only the
  // highest row (the transaction's last) writes the head. A TRUNCATE logs at once, mid-transaction;
  // its row's trigger still fires at commit, in order, and writes the head if nothing was logged
  // after it (and the last row writes it again).
  await sql`
    create function ${sql.id(WRITE_HEAD)}() returns trigger
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      if new.position = (select max(c.position) from public.${log} c) then
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
