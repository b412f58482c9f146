import { type Kysely, sql } from 'kysely';
import { PASSKEY_NAME_MAX } from '../../../../domain/passkey';
import { disableTenantWall, enableTenantWall } from '../../modules/tenant-wall-migration';
import { APP_ROLE } from './0002-tenant-walls';

// Passkeys (WebAuthn credentials) and the challenges of their ceremonies.
//
// - passkeys: several per member, walled like the other tenant tables. A credential id is unique
//   across the service: a passwordless sign-in names a credential and nobody else, so it is found
//   across tenants through one definer function that answers an exact id, for a member not removed.
//   The public key is kept as base64url text and the transports as one space-separated text, so
//   Postgres and PGlite hand back the same values.
// - passkey_challenges: a member's registration or second-factor challenge, walled, used once.
// - passkey_sign_ins: a passwordless sign-in's challenge before anyone is named. It belongs to no
//   tenant and holds no member's data (a random challenge under the SHA-256 of the client's
//   handle), so it has no wall; the service's role may read, write and drop expired rows.

export const LOOKUP_PASSKEY = 'lookup_passkey_by_credential';
/** The unique constraint on credential ids, which the repository turns into PasskeyAlreadyRegistered. */
export const PASSKEYS_CREDENTIAL_UNIQUE = 'passkeys_credential_id_key';

const role = sql.id(APP_ROLE);
const signature = () => sql`${sql.id(LOOKUP_PASSKEY)}(text)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table passkeys (
      id uuid primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      credential_id text not null,
      public_key text not null,
      sign_count bigint not null check (sign_count >= 0),
      transports text not null,
      backed_up boolean not null,
      user_handle text not null,
      name text not null check (char_length(name) between 1 and ${sql.lit(PASSKEY_NAME_MAX)}),
      created_at timestamptz not null,
      last_used_at timestamptz,
      constraint ${sql.id(PASSKEYS_CREDENTIAL_UNIQUE)} unique (credential_id)
    )`.execute(db);
  await sql`create index passkeys_member_idx on passkeys (tenant_id, user_id, created_at)`.execute(db);
  await enableTenantWall(db, 'passkeys', { privileges: ['select', 'insert', 'update', 'delete'] });

  await sql`
    create table passkey_challenges (
      id uuid primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      purpose text not null check (purpose in ('registration', 'second_factor')),
      attempt_key text,
      challenge text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      check ((purpose = 'second_factor') = (attempt_key is not null))
    )`.execute(db);
  await sql`create index passkey_challenges_member_idx on passkey_challenges (tenant_id, user_id, challenge) where used_at is null`.execute(db);
  await enableTenantWall(db, 'passkey_challenges', { privileges: ['select', 'insert', 'update'] });

  await sql`
    create table passkey_sign_ins (
      handle_hash text primary key check (handle_hash ~ '^[0-9a-f]{64}$'),
      challenge text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index passkey_sign_ins_expiry_idx on passkey_sign_ins (expires_at)`.execute(db);
  await sql`grant select, insert, update, delete on passkey_sign_ins to ${role}`.execute(db);

  await sql`
    create function ${signature()}
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
        where p.credential_id = $1 and u.removed_at is null;
    end $$`.execute(db);
  // Functions are executable by PUBLIC by default; this one must not be.
  await sql`revoke all on function ${signature()} from public`.execute(db);
  await sql`grant execute on function ${signature()} to ${role}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ${signature()}`.execute(db);
  await sql`revoke all on passkey_sign_ins from ${role}`.execute(db);
  await sql`drop table passkey_sign_ins`.execute(db);
  await disableTenantWall(db, 'passkey_challenges');
  await sql`drop table passkey_challenges`.execute(db);
  await disableTenantWall(db, 'passkeys');
  await sql`drop table passkeys`.execute(db);
}
