import { type Kysely, sql } from 'kysely';
import { AUDIT_CLIENT_ADDRESS_MAX, AUDIT_USER_AGENT_MAX } from '../../../../domain/audit-event';
import { SESSION_END_REASONS } from '../../../../domain/session';
import { disableTenantWall, enableTenantWall } from '../../modules/tenant-wall-migration';
import { APP_ROLE } from './0002-tenant-walls';
import { PROOF_OK } from './0009-tenant-wall-proofs';
import { CHANGE_LOG_TABLE, LOGGED_KINDS } from './0010-credential-change-log';

// Sessions: one row per sign-in, named by the bearer tokens issued for it (the `sid` claim).
//
// - Walled like the other tenant tables; the app role may read, insert and update (an ended session
//   keeps its row, so nothing is deleted by the service).
// - Ending a session (ended_at set) or deleting its row is a credential change, as a member's or a
//   key's is: logged at commit by a deferred constraint trigger (kind `session`, migration 0010's
//   log), and noted for the unit of work that made it (migration 0005's transaction-local note), so
//   its own instance forgets the session before answering and every other instance on reading the log.
//   last_seen_at and authenticated_at are not: a cached session never holds what they say for longer
//   than its own check needs (the idle timeout reads storage before it refuses; recent
//   authentication is always read from storage).
// - LOOKUP_SESSION answers a live session for an exact tenant and id in one statement, as the
//   member lookup of 0008/0009 does; RECORD_SESSION_USES moves last_seen_at forward for a batch
//   across tenants, as key usage does. Both want each tenant's proof (migration 0009).

export const LOOKUP_SESSION = 'lookup_live_session';
export const RECORD_SESSION_USES = 'record_session_uses';

const LOG_CHANGE = 'portcullis_log_credential_change';
const LOG_TRUNCATE = 'portcullis_log_truncate';
const ANNOUNCE = 'portcullis_announce_credential_change';
const LOG_SESSION = 'portcullis_log_session_change';
const NOTE_SESSION = 'portcullis_session_changed';

const role = sql.id(APP_ROLE);
const proofOk = sql`public.${sql.id(PROOF_OK)}`;
const log = sql.id(CHANGE_LOG_TABLE);
const lits = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));

const signatures = () => [
  sql`${sql.id(LOOKUP_SESSION)}(uuid, uuid, text)`,
  sql`${sql.id(RECORD_SESSION_USES)}(uuid[], uuid[], timestamptz[], text[])`,
];

/** The log's checks, rewritten for the kinds given: which kinds there are, and which name a tenant. */
async function logChecks(db: Kysely<unknown>, kinds: readonly string[], tenantKinds: readonly string[]): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint where conrelid = ${CHANGE_LOG_TABLE}::regclass and contype = 'c'`.execute(db);
  for (const { name } of rows) await sql`alter table ${log} drop constraint ${sql.id(name)}`.execute(db);
  await sql`
    alter table ${log}
      add constraint credential_change_log_kind_check check (kind in (${lits(kinds)})),
      add constraint credential_change_log_subject_check check ((kind = 'everything') = (subject_id is null)),
      add constraint credential_change_log_tenant_check check ((kind in (${lits(tenantKinds)})) = (tenant_id is not null))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sessions (
      id uuid primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      authenticated_at timestamptz not null,
      user_agent text check (char_length(user_agent) <= ${sql.lit(AUDIT_USER_AGENT_MAX)}),
      ip text check (char_length(ip) <= ${sql.lit(AUDIT_CLIENT_ADDRESS_MAX)}),
      ended_at timestamptz,
      ended_by uuid,
      end_reason text check (end_reason in (${lits(SESSION_END_REASONS)})),
      check ((ended_at is null) = (end_reason is null))
    )`.execute(db);
  await sql`create index sessions_live_idx on sessions (tenant_id, user_id, created_at) where ended_at is null`.execute(db);
  await enableTenantWall(db, 'sessions', { privileges: ['select', 'insert', 'update'] });

  await logChecks(db, [...LOGGED_KINDS, 'session'], ['user', 'api_key', 'session']);

  // The note for the unit of work (0005), at once; the log row (0010), at commit.
  await sql`
    create function ${sql.id(NOTE_SESSION)}() returns trigger
      language plpgsql
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(ANNOUNCE)}('session:' || old.id::text);
      if tg_op = 'UPDATE' and new.id <> old.id then
        perform public.${sql.id(ANNOUNCE)}('session:' || new.id::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function ${sql.id(LOG_SESSION)}() returns trigger
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $$
    begin
      perform public.${sql.id(LOG_CHANGE)}('session', old.id, old.tenant_id);
      if tg_op = 'UPDATE' and (new.id <> old.id or new.tenant_id <> old.tenant_id) then
        perform public.${sql.id(LOG_CHANGE)}('session', new.id, new.tenant_id);
      end if;
      return null;
    end $$`.execute(db);
  const changed = sql`old.ended_at is distinct from new.ended_at or old.user_id is distinct from new.user_id
        or old.tenant_id is distinct from new.tenant_id or old.id is distinct from new.id`;
  await sql`
    create trigger sessions_credential_changed after update on sessions for each row
      when (${changed}) execute function ${sql.id(NOTE_SESSION)}()`.execute(db);
  await sql`
    create trigger sessions_credential_deleted after delete on sessions for each row
      execute function ${sql.id(NOTE_SESSION)}()`.execute(db);
  await sql`
    create constraint trigger sessions_change_logged after update on sessions
      deferrable initially deferred for each row
      when (${changed}) execute function ${sql.id(LOG_SESSION)}()`.execute(db);
  await sql`
    create constraint trigger sessions_delete_logged after delete on sessions
      deferrable initially deferred for each row execute function ${sql.id(LOG_SESSION)}()`.execute(db);
  await sql`
    create trigger sessions_truncate_logged after truncate on sessions
      for each statement execute function ${sql.id(LOG_TRUNCATE)}()`.execute(db);
  for (const fn of [NOTE_SESSION, LOG_SESSION]) await sql`revoke all on function ${sql.id(fn)}() from public`.execute(db);

  await sql`
    create function ${sql.id(LOOKUP_SESSION)}(p_tenant_id uuid, p_session_id uuid, p_tenant_proof text)
      returns table (user_id uuid, last_seen_at timestamptz, authenticated_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}('tenant:' || p_tenant_id::text, p_tenant_proof) then
        return;
      end if;
      return query
        select s.user_id, s.last_seen_at, s.authenticated_at
        from public.sessions s
        where s.id = p_session_id and s.tenant_id = p_tenant_id and s.ended_at is null;
    end $$`.execute(db);
  await sql`
    create function ${sql.id(RECORD_SESSION_USES)}(p_session_ids uuid[], p_tenant_ids uuid[], p_seen_at timestamptz[], p_tenant_proofs text[])
      returns integer
      language plpgsql volatile security definer
      set search_path = public, pg_temp
    as $$
    declare
      moved integer;
    begin
      update public.sessions s
        set last_seen_at = u.seen_at
        from (
          select t.session_id, t.tenant_id, max(t.seen_at) as seen_at
          from unnest(p_session_ids, p_tenant_ids, p_seen_at) as t(session_id, tenant_id, seen_at)
          where t.tenant_id in (
            select c.tenant_id
            from (select distinct x.tenant_id, x.proof from unnest(p_tenant_ids, p_tenant_proofs) as x(tenant_id, proof)) c
            where ${proofOk}('tenant:' || c.tenant_id::text, c.proof)
          )
          group by t.session_id, t.tenant_id
        ) u
        where s.id = u.session_id and s.tenant_id = u.tenant_id and s.last_seen_at < u.seen_at;
      get diagnostics moved = row_count;
      return moved;
    end $$`.execute(db);
  for (const signature of signatures()) {
    // Functions are executable by PUBLIC by default; these must not be.
    await sql`revoke all on function ${signature} from public`.execute(db);
    await sql`grant execute on function ${signature} to ${role}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const signature of signatures()) await sql`drop function ${signature}`.execute(db);
  await disableTenantWall(db, 'sessions');
  await sql`drop table sessions`.execute(db);
  for (const fn of [NOTE_SESSION, LOG_SESSION]) await sql`drop function ${sql.id(fn)}()`.execute(db);
  await sql`delete from ${log} where kind = 'session'`.execute(db);
  await logChecks(db, LOGGED_KINDS, ['user', 'api_key']);
}
