import { type Kysely, sql } from 'kysely';
import { INVITABLE_ROLES } from '../../../../domain/role';
import { disableTenantWall, enableTenantWall } from '../../modules/tenant-wall-migration';
import { APP_ROLE } from './0002-tenant-walls';

// Single sign-on: a tenant's OpenID Connect connection, the domains it claims, the identities its
// provider vouched for, and the sign-ins in flight.
//
// - sso_connections: at most one per tenant, walled. The client secret is sealed (FactorSecrets);
//   the group mapping is JSON kept as text, so Postgres and PGlite hand back the same string.
// - sso_domains: a tenant's claims, walled. Several tenants may claim a domain, but the partial
//   unique index lets only one hold it verified: whoever proves it first owns it, and a second
//   verification fails on the index whatever the walls let either transaction see. Which tenant
//   owns a verified domain is asked across the walls (a sign-in by address names no tenant), through
//   one definer function that answers an exact domain name.
// - sso_identities: keyed by (tenant, issuer, subject), never by address; walled.
// - sso_sign_ins: between the redirect to the provider and its callback, found by the SHA-256 of
//   the state. The callback names no tenant before it finds the row, so, like passkey_sign_ins, it
//   has no wall; the service's role may read, write and drop expired rows.
// - email_tokens may hold an `sso_handoff` code: the one-time code that hands a session started by
//   the provider's callback to the console, used once like the other one-use tokens.

export const LOOKUP_SSO_DOMAIN_OWNER = 'lookup_sso_domain_owner';
/** The partial unique index on verified domains, which the repository turns into SsoDomainTaken. */
export const SSO_DOMAINS_VERIFIED_UNIQUE = 'sso_domains_verified_domain_key';

const PURPOSES_BEFORE = ['password_reset', 'email_verify', 'email_change', 'mfa_sign_in'];
const PURPOSES = [...PURPOSES_BEFORE, 'sso_handoff'];
const lits = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));

const role = sql.id(APP_ROLE);
const signature = () => sql`${sql.id(LOOKUP_SSO_DOMAIN_OWNER)}(text)`;

async function purposeCheck(db: Kysely<unknown>, purposes: readonly string[]): Promise<void> {
  await sql`alter table email_tokens drop constraint email_tokens_purpose_check`.execute(db);
  await sql`alter table email_tokens add constraint email_tokens_purpose_check check (purpose in (${lits(purposes)}))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sso_connections (
      tenant_id uuid primary key references tenants (id) on delete cascade,
      issuer text not null check (char_length(issuer) between 1 and 2048),
      client_id text not null check (char_length(client_id) between 1 and 1024),
      client_secret_sealed text not null,
      default_role text not null check (default_role in (${lits(INVITABLE_ROLES)})),
      sso_required boolean not null,
      group_roles text not null check (jsonb_typeof(group_roles::jsonb) = 'object'),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await enableTenantWall(db, 'sso_connections', { privileges: ['select', 'insert', 'update', 'delete'] });

  await sql`
    create table sso_domains (
      tenant_id uuid not null references tenants (id) on delete cascade,
      domain text not null check (domain = lower(domain) and char_length(domain) between 1 and 253),
      txt_value text not null,
      verified_at timestamptz,
      created_at timestamptz not null,
      primary key (tenant_id, domain)
    )`.execute(db);
  await sql`create unique index ${sql.id(SSO_DOMAINS_VERIFIED_UNIQUE)} on sso_domains (domain) where verified_at is not null`.execute(db);
  await enableTenantWall(db, 'sso_domains', { privileges: ['select', 'insert', 'update', 'delete'] });

  await sql`
    create table sso_identities (
      tenant_id uuid not null references tenants (id) on delete cascade,
      issuer text not null,
      subject text not null check (char_length(subject) between 1 and 255),
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null,
      last_sign_in_at timestamptz not null,
      primary key (tenant_id, issuer, subject)
    )`.execute(db);
  await sql`create index sso_identities_member_idx on sso_identities (tenant_id, user_id)`.execute(db);
  await enableTenantWall(db, 'sso_identities', { privileges: ['select', 'insert', 'update', 'delete'] });

  await sql`
    create table sso_sign_ins (
      state_hash text primary key check (state_hash ~ '^[0-9a-f]{64}$'),
      tenant_id uuid not null references tenants (id) on delete cascade,
      issuer text not null,
      nonce text not null,
      code_verifier text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index sso_sign_ins_expiry_idx on sso_sign_ins (expires_at)`.execute(db);
  await sql`grant select, insert, update, delete on sso_sign_ins to ${role}`.execute(db);

  await sql`
    create function ${signature()} returns uuid
      language sql stable security definer
      set search_path = public, pg_temp
    as $$ select d.tenant_id from public.sso_domains d where d.domain = $1 and d.verified_at is not null $$`.execute(db);
  // Functions are executable by PUBLIC by default; this one must not be.
  await sql`revoke all on function ${signature()} from public`.execute(db);
  await sql`grant execute on function ${signature()} to ${role}`.execute(db);

  await purposeCheck(db, PURPOSES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from email_tokens where purpose = 'sso_handoff'`.execute(db);
  await purposeCheck(db, PURPOSES_BEFORE);
  await sql`drop function ${signature()}`.execute(db);
  await sql`revoke all on sso_sign_ins from ${role}`.execute(db);
  await sql`drop table sso_sign_ins`.execute(db);
  for (const table of ['sso_identities', 'sso_domains', 'sso_connections']) {
    await disableTenantWall(db, table);
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
}
