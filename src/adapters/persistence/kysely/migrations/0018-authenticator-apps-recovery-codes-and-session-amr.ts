import { type Kysely, sql } from 'kysely';
import { disableTenantWall, enableTenantWall } from '../../modules/tenant-wall-migration';

// Second factors: authenticator apps and recovery codes, and how each session was authenticated.
//
// - totp_factors: at most one per member (pending until a first code confirms it). `secret` is the
//   shared secret sealed with MFA_ENCRYPTION_KEY (AES-256-GCM, naming its key); last_used_step is
//   the step of the latest code accepted, written conditionally so a code is accepted once.
// - recovery_codes: the SHA-256 of each code (120 random bits each); used_at set once.
// - Both walled like the other tenant tables; the app role may read, insert, update and delete
//   (a factor removed, a set of codes replaced, are deleted rows). A member deleted by hand in SQL
//   takes their factors along.
// - sessions.amr: how the session was authenticated (domain/second-factor.ts); sessions made before
//   this migration were all started by a password.
// - email_tokens may hold a sign-in's `mfa_sign_in` token: the mfa_token between the password and
//   the second factor, used once, as the other one-use tokens are.

const PURPOSES_BEFORE = ['password_reset', 'email_verify', 'email_change'];
const PURPOSES = [...PURPOSES_BEFORE, 'mfa_sign_in'];
const lits = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));

async function purposeCheck(db: Kysely<unknown>, purposes: readonly string[]): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = 'email_tokens'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%purpose%'`.execute(db);
  for (const { name } of rows) await sql`alter table email_tokens drop constraint ${sql.id(name)}`.execute(db);
  await sql`alter table email_tokens add constraint email_tokens_purpose_check check (purpose in (${lits(purposes)}))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table totp_factors (
      id uuid primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      secret text not null,
      created_at timestamptz not null,
      confirmed_at timestamptz,
      last_used_step bigint,
      constraint totp_factors_member_key unique (tenant_id, user_id)
    )`.execute(db);
  await enableTenantWall(db, 'totp_factors', { privileges: ['select', 'insert', 'update', 'delete'] });

  await sql`
    create table recovery_codes (
      id uuid primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      code_hash text not null unique check (code_hash ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index recovery_codes_member_idx on recovery_codes (tenant_id, user_id)`.execute(db);
  await enableTenantWall(db, 'recovery_codes', { privileges: ['select', 'insert', 'update', 'delete'] });

  await sql`alter table sessions add column amr text[] not null default array['pwd']::text[]`.execute(db);
  await purposeCheck(db, PURPOSES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from email_tokens where purpose = 'mfa_sign_in'`.execute(db);
  await purposeCheck(db, PURPOSES_BEFORE);
  await sql`alter table sessions drop column amr`.execute(db);
  await disableTenantWall(db, 'recovery_codes');
  await sql`drop table recovery_codes`.execute(db);
  await disableTenantWall(db, 'totp_factors');
  await sql`drop table totp_factors`.execute(db);
}
