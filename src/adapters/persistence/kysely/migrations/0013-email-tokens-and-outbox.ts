import { type Kysely, sql } from 'kysely';
import { enableTenantWall } from '../../modules/tenant-wall-migration';
import { APP_ROLE } from './0002-tenant-walls';
import { PROOF_OK } from './0009-tenant-wall-proofs';

// E-mail: proven addresses, tokens sent by e-mail, and the outbox.
//
// - users.email_verified_at: when the member proved they read their current address.
// - email_tokens: a password reset, an address's verification or a new address's confirmation.
//   Only the SHA-256 of a token is kept. Walled like the other tenant tables; a link's token is
//   found across tenants by its hash through one definer function, as invites are by theirs
//   (nobody can guess a 256-bit token's hash). A member deleted by hand in SQL takes their links along.
// - mail_outbox: a message is inserted by the transaction that causes it, behind the tenant wall,
//   and the app role can do nothing else with the table. Delivery workers on every instance claim
//   and finish messages through two definer functions that want the service's proof over 'mail',
//   since the outbox names every tenant's addresses. A claim is `FOR UPDATE SKIP LOCKED` plus a
//   lease: two workers never take the same message, and a worker that died lets go when its lease
//   ends. A finished message's input, which may hold a link's token, is wiped.

export const LOOKUP_EMAIL_TOKEN = 'lookup_email_token';
export const CLAIM_MAIL = 'claim_mail';
export const FINISH_MAIL = 'finish_mail';
export const PRUNE_MAIL = 'prune_mail';
/** The subject of the proof (migration 0009) that claiming and finishing messages want. */
export const MAIL_SUBJECT = 'mail';

const role = sql.id(APP_ROLE);
const proofOk = sql`public.${sql.id(PROOF_OK)}`;

const signatures = () => [
  sql`${sql.id(LOOKUP_EMAIL_TOKEN)}(text)`,
  sql`${sql.id(CLAIM_MAIL)}(timestamptz, timestamptz, integer, text)`,
  sql`${sql.id(FINISH_MAIL)}(uuid, integer, text, timestamptz, timestamptz, text, text)`,
  sql`${sql.id(PRUNE_MAIL)}(timestamptz, text)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column email_verified_at timestamptz`.execute(db);

  await sql`
    create table email_tokens (
      id uuid primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      purpose text not null check (purpose in ('password_reset', 'email_verify', 'email_change')),
      token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
      email text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index email_tokens_member_idx on email_tokens (tenant_id, user_id, purpose) where used_at is null`.execute(db);
  await enableTenantWall(db, 'email_tokens', { privileges: ['select', 'insert', 'update'] });

  await sql`
    create table mail_outbox (
      id uuid primary key,
      tenant_id uuid not null,
      kind text not null,
      recipient text not null,
      input jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      leased_until timestamptz,
      created_at timestamptz not null,
      finished_at timestamptz,
      last_error text
    )`.execute(db);
  await sql`create index mail_outbox_due_idx on mail_outbox (next_attempt_at, id) where status = 'pending'`.execute(db);
  await enableTenantWall(db, 'mail_outbox', { privileges: ['insert'] });

  await sql`
    create function ${sql.id(LOOKUP_EMAIL_TOKEN)}(p_hash text)
      returns table (id uuid, tenant_id uuid, user_id uuid, purpose text, token_hash text, email text,
                     created_at timestamptz, expires_at timestamptz, used_at timestamptz)
      language plpgsql stable security definer
      set search_path = public, pg_temp
    as $$
    begin
      return query
        select t.id, t.tenant_id, t.user_id, t.purpose, t.token_hash, t.email, t.created_at, t.expires_at, t.used_at
        from public.email_tokens t
        where t.token_hash = p_hash;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(CLAIM_MAIL)}(p_now timestamptz, p_lease_until timestamptz, p_limit integer, p_proof text)
      returns table (id uuid, tenant_id uuid, kind text, recipient text, input jsonb, created_at timestamptz, attempt integer)
      language plpgsql security definer
      set search_path = public, pg_temp
    as $$
    begin
      if not ${proofOk}(${sql.lit(MAIL_SUBJECT)}, p_proof) then
        return;
      end if;
      return query
        with claimed as (
          update public.mail_outbox m
          set attempts = m.attempts + 1, leased_until = p_lease_until
          where m.id in (
            select d.id from public.mail_outbox d
            where d.status = 'pending' and d.next_attempt_at <= p_now and (d.leased_until is null or d.leased_until <= p_now)
            order by d.next_attempt_at, d.id
            limit greatest(p_limit, 0)
            for update skip locked)
          returning m.id, m.tenant_id, m.kind, m.recipient, m.input, m.created_at, m.attempts, m.next_attempt_at)
        select c.id, c.tenant_id, c.kind, c.recipient, c.input, c.created_at, c.attempts
        from claimed c
        order by c.next_attempt_at, c.id;
    end $$`.execute(db);

  await sql`
    create function ${sql.id(FINISH_MAIL)}(p_id uuid, p_attempt integer, p_status text, p_at timestamptz,
                                           p_next_attempt_at timestamptz, p_error text, p_proof text)
      returns boolean
      language plpgsql security definer
      set search_path = public, pg_temp
    as $$
    declare
      v_found boolean;
    begin
      if not ${proofOk}(${sql.lit(MAIL_SUBJECT)}, p_proof) or p_status not in ('pending', 'sent', 'failed') then
        return false;
      end if;
      update public.mail_outbox m
      set status = p_status,
          leased_until = null,
          next_attempt_at = case when p_status = 'pending' then p_next_attempt_at else m.next_attempt_at end,
          input = case when p_status = 'pending' then m.input else '{}'::jsonb end,
          finished_at = case when p_status = 'pending' then null else p_at end,
          last_error = case when p_status = 'sent' then null else left(p_error, 500) end
      where m.id = p_id and m.attempts = p_attempt and m.status = 'pending'
      returning true into v_found;
      return coalesce(v_found, false);
    end $$`.execute(db);

  // Finished messages are kept a while for whoever looks into a delivery, then dropped.
  await sql`create index mail_outbox_finished_idx on mail_outbox (finished_at) where status <> 'pending'`.execute(db);
  await sql`
    create function ${sql.id(PRUNE_MAIL)}(p_before timestamptz, p_proof text)
      returns integer
      language plpgsql security definer
      set search_path = public, pg_temp
    as $$
    declare
      v_dropped integer;
    begin
      if not ${proofOk}(${sql.lit(MAIL_SUBJECT)}, p_proof) then
        return 0;
      end if;
      delete from public.mail_outbox m where m.status <> 'pending' and m.finished_at < p_before;
      get diagnostics v_dropped = row_count;
      return v_dropped;
    end $$`.execute(db);

  for (const signature of signatures()) {
    // Functions are executable by PUBLIC by default; these must not be.
    await sql`revoke all on function ${signature} from public`.execute(db);
    await sql`grant execute on function ${signature} to ${role}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const signature of signatures()) await sql`drop function ${signature}`.execute(db);
  await sql`drop table mail_outbox`.execute(db);
  await sql`drop table email_tokens`.execute(db);
  await sql`alter table users drop column email_verified_at`.execute(db);
}
